// The golden digests' script compiled (test/determinism/render-digests.ts in dist-test/, built as the
// service's dist/ is: scripts/build-service.mjs TEST_BUNDLE). The determinism tier runs it under
// emulation and on other Node versions: through tsx, each process and render thread compiled the
// render path's TypeScript again, under qemu a third of the CPU of a run. scripts/run-tests.mjs builds
// it before the tier; a file run alone builds it here (a check of the stamp when it is current).
import path from 'node:path';
import { buildService, TEST_BUNDLE } from '../../scripts/build-service.mjs';

/** The repository-relative path of the compiled render-digests script, built when not current. */
export async function renderDigestsBundle(): Promise<string> {
  await buildService(TEST_BUNDLE);
  return path.join(TEST_BUNDLE.dir, 'render-digests.js');
}

/** The repository-relative path of dmath's digest test compiled (src/generators/lib/dmath.test.ts), built when not current. */
export async function dmathTestBundle(): Promise<string> {
  await buildService(TEST_BUNDLE);
  return path.join(TEST_BUNDLE.dir, 'dmath.test.js');
}
