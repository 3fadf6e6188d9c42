// API keys of a workspace: create (the secret is shown once), list, revoke, and verify a bearer.
// Secrets carry 190 random bits, so a plain sha256 is the right stored form (no salt or slow hash
// needed: nothing to brute-force); verification looks the hash up and compares in constant time.
import { timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../lib/ids.ts';
import type { ApiKeyRecord, ApiKeysRepository } from '../../db/repositories/api-keys.repository.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Clock } from '../lib/clock.ts';
import { sha256Hex } from '../lib/hashing.ts';

/** Hosted keys; local-mode keys start with `svc_local_` so the two can never be confused. */
export const LIVE_KEY_PREFIX = 'svc_live_';
export const LOCAL_KEY_PREFIX = 'svc_local_';
/** Active keys a workspace may hold; more is almost always a leak waiting to happen. */
export const MAX_ACTIVE_KEYS = 100;
/** lastUsedAt is written at most this often per key, so authentication is not a write per request. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * A new secret: the prefix, then 32 base62 characters (≈190 random bits). Base62 keeps the key one
 * "word" (double-click selects it all) and gives secret scanners a fixed, recognisable shape.
 */
export function generateSecret(prefix: string): string {
  return prefix + randomBase62(32);
}

/** What the key list shows to recognise a key: the type prefix and the first six characters. */
export function displayPrefix(secret: string): string {
  const type = secret.startsWith(LOCAL_KEY_PREFIX) ? LOCAL_KEY_PREFIX : LIVE_KEY_PREFIX;
  return secret.slice(0, type.length + 6);
}

export interface ApiKeyView {
  id: string;
  label: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revoked: boolean;
  revokedAt: string | null;
}

export type KeyCheck = { ok: true; key: ApiKeyRecord } | { ok: false; reason: 'invalid' | 'revoked' };

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toView(key: ApiKeyRecord): ApiKeyView {
  return {
    id: key.id,
    label: key.label,
    prefix: key.prefix,
    createdAt: new Date(key.createdAt).toISOString(),
    lastUsedAt: iso(key.lastUsedAt),
    revoked: key.revokedAt !== null,
    revokedAt: iso(key.revokedAt),
  };
}

export class KeysService {
  constructor(
    private readonly repo: ApiKeysRepository,
    private readonly clock: Clock,
    /** Local mode issues `svc_local_` keys, hosted mode `svc_live_` keys. */
    private readonly localMode: boolean,
    private readonly onTouchError: (err: unknown) => void = () => {},
  ) {}

  async create(workspaceId: string, label: string): Promise<ApiKeyView & { secret: string }> {
    if ((await this.repo.countActive(workspaceId)) >= MAX_ACTIVE_KEYS) {
      throw new ProblemError('key_limit_reached', {
        detail: `A workspace can hold at most ${MAX_ACTIVE_KEYS} active keys. Revoke unused keys first.`,
      });
    }
    const secret = generateSecret(this.localMode ? LOCAL_KEY_PREFIX : LIVE_KEY_PREFIX);
    const record = await this.repo.insert({
      id: `key_${generateSecret('').slice(0, 20)}`,
      workspaceId,
      label: label.trim() || label,
      prefix: displayPrefix(secret),
      secretHash: sha256Hex(secret),
      createdAt: this.clock.now(),
    });
    return { ...toView(record), secret };
  }

  async list(workspaceId: string): Promise<ApiKeyView[]> {
    return (await this.repo.listByWorkspace(workspaceId)).map(toView);
  }

  async revoke(workspaceId: string, id: string): Promise<ApiKeyView> {
    const key = await this.repo.revoke(workspaceId, id, this.clock.now());
    if (!key) throw new ProblemError('not_found', { detail: `No key ${id} in this workspace.` });
    return toView(key);
  }

  /**
   * Verifies a persisted key. Reads the database on every call: no cache may outlive a revocation,
   * and every process sees the same row.
   */
  async verify(secret: string): Promise<KeyCheck> {
    const wantedHash = sha256Hex(secret);
    const key = await this.repo.findByHash(wantedHash);
    if (!key || !timingSafeEqual(Buffer.from(key.secretHash, 'hex'), Buffer.from(wantedHash, 'hex')))
      return { ok: false, reason: 'invalid' };
    // Each mode honours only its own keys, even ones that found their way into its database: hosted
    // mode no local key, local mode (which bills nothing) no customer's `svc_live_` key.
    if (this.localMode !== key.prefix.startsWith(LOCAL_KEY_PREFIX)) return { ok: false, reason: 'invalid' };
    if (key.revokedAt !== null) return { ok: false, reason: 'revoked' };
    const now = this.clock.now();
    if (key.lastUsedAt === null || now - key.lastUsedAt >= TOUCH_INTERVAL_MS) {
      // Not awaited: bookkeeping must not slow down or fail the request.
      this.repo.touch(key.id, now).catch(this.onTouchError);
    }
    return { ok: true, key };
  }
}
