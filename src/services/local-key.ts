// In local mode with no API_KEYS, the service generates one key on first start and keeps it under
// DATA_DIR so `curl` works right after `npm start`. The file is readable by its owner only.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { LOCAL_KEY_PREFIX, generateSecret } from './keys.service.ts';

export function ensureLocalApiKey(dataDir: string): { key: string; file: string; created: boolean } {
  const file = path.join(dataDir, 'local-api-key');
  try {
    const key = readFileSync(file, 'utf8').trim();
    if (key.startsWith(LOCAL_KEY_PREFIX)) return { key, file, created: false };
  } catch {
    // not created yet
  }
  mkdirSync(dataDir, { recursive: true });
  const key = generateSecret(LOCAL_KEY_PREFIX);
  writeFileSync(file, key + '\n', { mode: 0o600 });
  return { key, file, created: true };
}
