// The scripts tests run as child processes, compiled (test/determinism/render-digests.ts, dmath's digest
// test and test/support/render-text-samples.ts in dist-test/, built as the service's dist/ is:
// scripts/build-service.mjs TEST_BUNDLE). The determinism tier runs them under emulation and on other
// Node versions: through tsx, each process and render thread compiled the render path's TypeScript
// again, under qemu a third of the CPU of a run.
// scripts/run-tests.mjs builds them before the determinism tier; a file run alone builds them here (a check of the
// stamp when they are current).
import path from 'node:path';
import { buildService, TEST_BUNDLE } from '../../scripts/build-service.mjs';

/** The repository-relative path of an entry of TEST_BUNDLE compiled, built when not current. */
export async function testBundle(entry: 'render-digests' | 'dmath.test' | 'render-text-samples'): Promise<string> {
  await buildService(TEST_BUNDLE);
  return path.join(TEST_BUNDLE.dir, `${entry}.js`);
}
