/** Where a package shows: a file (under RENDER_TEST_SYSTEM_ROOT) or a command on the PATH; `env` or `dirEnv` points elsewhere. */
export interface Probe {
  file?: string;
  command?: string;
  env?: string;
  dirEnv?: { env: string; dir: string };
}

/** A Debian/Ubuntu package the tests need: why, which test files, and how it is found. */
export interface SystemPackage {
  name: string;
  why: string;
  tests: string[];
  probes: Probe[];
}

/** The one list of the system packages the test tiers need. */
export const SYSTEM_PACKAGES: SystemPackage[];

/** The packages `files` need (all when undefined) that are missing, and the variables that point where nothing is. */
export function checkSystemPackages(options?: { files?: string[]; env?: NodeJS.ProcessEnv }): {
  missing: { pkg: SystemPackage; what: string[] }[];
  misdirected: { pkg: SystemPackage; what: string; variable: string }[];
};

/** Returns when the packages `files` need (all when undefined) are installed, installing them when it can; otherwise exits 1 saying what to install. */
export function requireSystemPackages(options?: { files?: string[]; env?: NodeJS.ProcessEnv }): void;
