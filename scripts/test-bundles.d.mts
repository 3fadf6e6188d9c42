/** Types of scripts/test-bundles.mjs (the run's test files, compiled). */
export function bundleTestFiles(options: {
  root: string;
  entries: Record<string, string>;
  outdir: string;
}): Promise<Record<string, string>>;
