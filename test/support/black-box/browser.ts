// The browser the acceptance tests drive: CHROMIUM_PATH, else Debian's `chromium-headless-shell`,
// Chromium's own headless build (the same Blink, without the full browser's UI layers), which is
// also what Playwright drives headless by default. The four browser files took 73 s of CPU with it
// and 87 s with Debian's full `chromium` in headless mode, the same 40 tests passing (side by side,
// two rounds, 2026-11-30). scripts/system-packages.mjs installs it.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell';

/** Starts the browser; fails with the command that installs it when it is not there. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium-headless-shell (npm test installs it), or set CHROMIUM_PATH.`,
    );
  }
  // As root (CI) Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
}
