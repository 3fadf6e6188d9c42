// Decides who is calling. One decision per request: a bearer header is final (a revoked or
// malformed bearer never falls back to a session); without one, the session cookie; without that,
// the local gateway's vouching for a same-origin loopback browser request.
import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../config/config.ts';
import { sha256Hex } from '../lib/hashing.ts';
import type { KeysService } from './keys.service.ts';

export type AuthMethod = 'api_key' | 'session' | 'local';

export interface SessionUser {
  id: string;
  name: string | null;
  email: string | null;
  image: string | null;
}

export interface Principal {
  workspaceId: string;
  method: AuthMethod;
  /** Set for keys persisted in the database. */
  keyId?: string;
  /** Set for sessions. */
  user?: SessionUser;
}

export type AuthFailure = 'missing' | 'malformed' | 'invalid' | 'revoked';
export type AuthResult = { ok: true; principal: Principal } | { ok: false; reason: AuthFailure };

export interface SessionInfo {
  user: SessionUser;
  workspaceId: string;
  expiresAt: number;
}

/** Reads the browser session behind a request's cookies (the authentication library, in hosted mode). */
export interface SessionReader {
  read(headers: Record<string, string | string[] | undefined>): Promise<SessionInfo | null>;
}

export interface SignInProvider {
  id: 'github' | 'google' | 'dev';
  name: string;
  signInUrl: string;
}

export interface AuthRequest {
  headers: Record<string, string | string[] | undefined>;
  /** Set by the local gateway for same-origin loopback browser requests (local mode only). */
  localGateway?: boolean;
}

export const LOCAL_WORKSPACE_ID = 'ws_local';
export const SESSION_COOKIE = '__Secure-service.session_token';

/** Bearer token syntax per RFC 6750 (b64token); the scheme name is case-insensitive (RFC 9110 §11.1). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/** The token of an `Authorization: Bearer <token>` header, or undefined when it is not one. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' ? BEARER.exec(header.trim())?.[1] : undefined;
}

export function hasSessionCookie(headers: AuthRequest['headers']): boolean {
  const cookie = headers.cookie;
  if (typeof cookie !== 'string') return false;
  return cookie.split(';').some((part) => part.trim().startsWith(`${SESSION_COOKIE}=`));
}

export class AuthService {
  private readonly localKeyHashes: Buffer[];

  constructor(
    private readonly config: Pick<Config, 'localMode'>,
    /** API_KEYS and the generated local key: they authenticate the local workspace, in local mode only. */
    localKeys: readonly string[],
    private readonly keys: KeysService,
    private readonly sessions: SessionReader | null,
    private readonly signInProviders: readonly SignInProvider[] = [],
  ) {
    // Compare hashes, not secrets: equal-length buffers for timingSafeEqual, and no secret kept around.
    this.localKeyHashes = config.localMode ? localKeys.map((k) => Buffer.from(sha256Hex(k), 'hex')) : [];
  }

  async authenticate(req: AuthRequest): Promise<AuthResult> {
    const header = req.headers.authorization;
    if (header !== undefined) {
      const token = bearerToken(header);
      if (!token) return { ok: false, reason: 'malformed' };
      return this.authenticateBearer(token);
    }
    if (hasSessionCookie(req.headers)) {
      const session = this.sessions ? await this.sessions.read(req.headers) : null;
      if (!session) return { ok: false, reason: 'invalid' };
      return { ok: true, principal: { workspaceId: session.workspaceId, method: 'session', user: session.user } };
    }
    if (req.localGateway && this.config.localMode) {
      return { ok: true, principal: { workspaceId: LOCAL_WORKSPACE_ID, method: 'local' } };
    }
    return { ok: false, reason: 'missing' };
  }

  /** Sign-in providers configured in hosted mode (none in local mode). */
  providers(): SignInProvider[] {
    return [...this.signInProviders];
  }

  /** The session behind the request's cookie, if any (GET /v1/auth-config shows it). */
  async currentSession(req: AuthRequest): Promise<SessionInfo | null> {
    if (!this.sessions || !hasSessionCookie(req.headers)) return null;
    return this.sessions.read(req.headers);
  }

  private async authenticateBearer(token: string): Promise<AuthResult> {
    if (this.config.localMode) {
      const hash = Buffer.from(sha256Hex(token), 'hex');
      let matched = false;
      // Check every key so timing does not reveal which one matched.
      for (const known of this.localKeyHashes) matched = timingSafeEqual(known, hash) || matched;
      if (matched) return { ok: true, principal: { workspaceId: LOCAL_WORKSPACE_ID, method: 'api_key' } };
    }
    const check = await this.keys.verify(token);
    if (!check.ok) return check;
    return { ok: true, principal: { workspaceId: check.key.workspaceId, method: 'api_key', keyId: check.key.id } };
  }
}
