// Decides who is calling. One decision per request: a bearer header is final (a revoked or
// malformed bearer never falls back to a session); without one, the session cookie; without that,
// the local gateway's vouching for a same-origin loopback browser request. A recipe URL carrying
// `sig` (a signed public URL) is decided by its signature alone: headers are not read.
import { bearerToken } from '../lib/bearer.ts';
import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../config/config.ts';
import { sha256Hex } from '../lib/hashing.ts';
import type { KeysService } from './keys.service.ts';
import type { KeyScope } from './key-scopes.ts';

/** `signed_url`: a signed public recipe URL or a signed base's URL (only renderRecipe and renderSigningBase accept it). */
export type AuthMethod = 'api_key' | 'session' | 'local' | 'signed_url';

export interface SessionUser {
  id: string;
  name: string | null;
  email: string | null;
  image: string | null;
}

export interface Principal {
  workspaceId: string;
  method: AuthMethod;
  /** Set for keys persisted in the database (for a signed URL, its signing key's id). */
  keyId?: string;
  /** Set for a persisted API key created with scopes: all it may do (key-scopes.ts). Absent: every scope. */
  scopes?: readonly KeyScope[];
  /** Set for signed URLs: the Cache-Control max-age of the answer. */
  signed?: { maxAgeSeconds: number };
  /** Set for sessions. */
  user?: SessionUser;
}

/** `signed_url`: a signed URL refused (`detail` says why; `expired` → 410 instead of 401). */
export type AuthFailure = 'missing' | 'malformed' | 'invalid' | 'revoked' | 'signed_url';
export type AuthResult =
  | { ok: true; principal: Principal }
  | { ok: false; reason: Exclude<AuthFailure, 'signed_url'> }
  | { ok: false; reason: 'signed_url'; detail: string; expired: boolean };

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
  /** The request target as received (path and raw query): a signed URL is verified on it. */
  url?: string;
  method?: string;
  /** Set by the local gateway for same-origin loopback browser requests (local mode only). */
  localGateway?: boolean;
}

export const LOCAL_WORKSPACE_ID = 'ws_local';
export const SESSION_COOKIE = '__Secure-service.session_token';

/** Verifies a signed URL's request target (url-signing-keys.service.ts); undefined when it is not signed. */
export interface SignedUrlVerifier {
  verifyRequest(
    rawTarget: string,
  ): Promise<
    | { ok: true; grant: { keyId: string; workspaceId: string; maxAgeSeconds: number } }
    | { ok: false; status: 401 | 410; detail: string }
    | undefined
  >;
}

/** The paths signed URLs may call: renderRecipe's with a query, and renderSigningBase's (a signed base's URL). */
const SIGNED_PATH = /^\/v1\/render\/[^/?]+\?|^\/v1\/bases\/[^/?]+\/[^/?]+(?:\?|$)/;

export function hasSessionCookie(headers: AuthRequest['headers']): boolean {
  const cookie = headers.cookie;
  if (typeof cookie !== 'string') return false;
  return cookie.split(';').some((part) => part.trim().startsWith(`${SESSION_COOKIE}=`));
}

export interface AuthServiceOptions {
  config: Pick<Config, 'localMode'>;
  /** API_KEYS and the generated local key: they authenticate the local workspace, in local mode only. */
  localKeys: readonly string[];
  keys: KeysService;
  /** Browser sessions; null without browser sign-in (local mode). */
  sessions: SessionReader | null;
  /** Listed by providers(); none unless told. */
  signInProviders?: readonly SignInProvider[];
  /** Without one a signed URL's signature is not checked: such a request needs other credentials. */
  signedUrls?: SignedUrlVerifier | null;
}

export class AuthService {
  private readonly localKeyHashes: Buffer[];
  private readonly config: Pick<Config, 'localMode'>;
  private readonly keys: KeysService;
  private readonly sessions: SessionReader | null;
  private readonly signInProviders: readonly SignInProvider[];
  private readonly signedUrls: SignedUrlVerifier | null;

  constructor(options: AuthServiceOptions) {
    ({ config: this.config, keys: this.keys, sessions: this.sessions } = options);
    this.signInProviders = options.signInProviders ?? [];
    this.signedUrls = options.signedUrls ?? null;
    // Compare hashes, not secrets: equal-length buffers for timingSafeEqual, and no secret kept around.
    this.localKeyHashes = this.config.localMode ? options.localKeys.map((k) => Buffer.from(sha256Hex(k), 'hex')) : [];
  }

  async authenticate(req: AuthRequest): Promise<AuthResult> {
    if (this.signedUrls && req.url !== undefined && (req.method === 'GET' || req.method === 'HEAD') && SIGNED_PATH.test(req.url)) {
      const check = await this.signedUrls.verifyRequest(req.url);
      if (check?.ok === false) return { ok: false, reason: 'signed_url', detail: check.detail, expired: check.status === 410 };
      if (check?.ok) {
        const { grant } = check;
        return {
          ok: true,
          principal: {
            workspaceId: grant.workspaceId,
            method: 'signed_url',
            keyId: grant.keyId,
            signed: { maxAgeSeconds: grant.maxAgeSeconds },
          },
        };
      }
    }
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
    const { key } = check;
    return {
      ok: true,
      principal: {
        workspaceId: key.workspaceId,
        method: 'api_key',
        keyId: key.id,
        ...(key.scopes ? { scopes: key.scopes as KeyScope[] } : {}),
      },
    };
  }
}
