// Decides who is calling. One decision per request: a bearer header is final (a revoked or
// malformed bearer never falls back to a session); without one, the session or the local gateway.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config/config.ts';

export type AuthMethod = 'api_key' | 'session' | 'local';

export interface Principal {
  workspaceId: string;
  method: AuthMethod;
  /** Set for keys persisted in the database. */
  keyId?: string;
  userId?: string;
}

export type AuthResult = { ok: true; principal: Principal } | { ok: false; reason: 'missing' | 'malformed' | 'invalid' | 'revoked' };

export interface AuthRequest {
  headers: Record<string, string | string[] | undefined>;
}

export const LOCAL_WORKSPACE_ID = 'ws_local';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Bearer token syntax per RFC 6750 (b64token). */
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;

export class AuthService {
  private readonly localKeyHashes: Buffer[];

  constructor(
    private readonly config: Pick<Config, 'localMode'>,
    localKeys: readonly string[],
  ) {
    // Compare hashes, not secrets: equal-length buffers for timingSafeEqual, and no secret kept around.
    this.localKeyHashes = config.localMode ? localKeys.map((k) => Buffer.from(sha256Hex(k), 'hex')) : [];
  }

  async authenticate(req: AuthRequest): Promise<AuthResult> {
    const header = req.headers.authorization;
    if (header !== undefined) {
      const match = typeof header === 'string' ? BEARER.exec(header.trim()) : null;
      if (!match) return { ok: false, reason: 'malformed' };
      return this.authenticateBearer(match[1]);
    }
    return { ok: false, reason: 'missing' };
  }

  private async authenticateBearer(token: string): Promise<AuthResult> {
    const hash = Buffer.from(sha256Hex(token), 'hex');
    if (this.config.localMode) {
      let matched = false;
      // Check every key so timing does not reveal which one matched.
      for (const known of this.localKeyHashes) matched = timingSafeEqual(known, hash) || matched;
      if (matched) return { ok: true, principal: { workspaceId: LOCAL_WORKSPACE_ID, method: 'api_key' } };
    }
    return { ok: false, reason: 'invalid' };
  }
}
