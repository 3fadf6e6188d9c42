// URL signing keys of a workspace (signed public recipe URLs): create (the secret is shown once),
// list (with the month's spending), revoke, sign a recipe URL, verify a signed request and charge
// a signed miss within the key's monthly limit. The service stores SHA-256(secret), the HMAC key,
// and never the secret: it cannot show a secret again, but a copy of its database can sign for
// active keys (as with webhook secrets), so keys are revoked if the database leaks.
// A signed request reads its key's row every time (a primary-key read): a revocation is seen by
// every process at once, on SQLite and Postgres alike, with no cache to invalidate.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { SpendOutcome, UrlSigningKeyRecord, UrlSigningKeysRepository } from '../../db/repositories/url-signing-keys.repository.ts';
import type { Transaction } from '../../db/database.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import type { SigningBaseRecord } from '../../db/repositories/signing-bases.repository.ts';
import { sha256Hex } from '../lib/hashing.ts';
import {
  BASE_URL_FILE,
  BASE_URL_PATH,
  baseMessage,
  canonicalSignedTarget,
  type SignedTargetProblem,
  sign,
  signTarget,
  signingKeyOf,
  verify,
} from '../lib/url-signature.ts';
import type { RateLimiter } from './rate-limit.service.ts';
import { MAX_ACTIVE_KEYS, utcMonth } from './keys.service.ts';

export const SIGNING_SECRET_PREFIX = 'svc_sign_';
/** Cache-Control max-age of signed responses unless the key says less: a year. */
export const DEFAULT_SIGNED_MAX_AGE_SECONDS = 31_536_000;
/** lastUsedAt is written at most this often per key. */
const TOUCH_INTERVAL_MS = 60_000;

/** Why a signed request was refused (the metric's `reason` label). */
export type SignedUrlRefusal = 'signature' | 'expired' | 'revoked' | 'limit' | 'balance' | 'rate_limited';

export interface UrlSigningKeyView {
  id: string;
  label: string;
  prefix: string;
  monthlyCreditLimit: number | null;
  maxAgeSeconds: number;
  creditsSpentThisMonth: number;
  createdAt: string;
  lastUsedAt: string | null;
  revoked: boolean;
  revokedAt: string | null;
}

/** What a verified signed request carries on its principal. */
export interface SignedGrant {
  keyId: string;
  workspaceId: string;
  /** Cache-Control max-age of the answer: the key's maxAgeSeconds, or less when the URL expires sooner. */
  maxAgeSeconds: number;
}

export type SignedCheck = { ok: true; grant: SignedGrant } | { ok: false; status: 401 | 410; detail: string };

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const PROBLEM_DETAILS: Record<SignedTargetProblem, string> = {
  not_canonical:
    'A signed URL is taken only as the service writes it: name=value parameters in letters, digits and - . _ ~, nothing percent-encoded.',
  signature_not_last: 'sig must be the last query parameter: a parameter after it is not signed.',
  duplicate_parameter: 'A query parameter appears more than once in a signed URL.',
  missing_key_id: 'A signed URL needs kid (the signing key id) before sig.',
  key_id_not_in_place: 'A signed URL ends with kid, then exp (if any), then sig.',
  malformed_expiry: 'exp must be unix seconds.',
  unsigned_key_id: 'kid and exp only mean something in a signed URL: sig is missing.',
  malformed_signature: 'sig must be a base64url HMAC-SHA256 (43 characters, no padding).',
};

export interface UrlSigningKeysServiceOptions {
  repo: UrlSigningKeysRepository;
  clock: Clock;
  /** Counts signed-URL renders that are not cached, by signing key. */
  rateLimiter: Pick<RateLimiter, 'consumeSignedMiss'>;
  /** A failed write of lastUsedAt; it never fails the request. Ignored by default. */
  onTouchError?: (err: unknown) => void;
  /** Signed bases, found by id when a base URL is verified; without them a base URL is refused. */
  bases?: { findById(id: string): Promise<SigningBaseRecord | undefined> };
}

/** What a base's signature covers besides its id and key: its extension and its stored definition. */
export function baseSignatureMessage(base: Pick<SigningBaseRecord, 'id' | 'keyId' | 'definition'>, extension: string): string {
  return baseMessage(base.id, extension, sha256Hex(base.definition), base.keyId);
}

export class UrlSigningKeysService extends EventEmitter<{ refused: [reason: SignedUrlRefusal] }> {
  private readonly repo: UrlSigningKeysRepository;
  private readonly clock: Clock;
  private readonly rateLimiter: Pick<RateLimiter, 'consumeSignedMiss'>;
  private readonly onTouchError: (err: unknown) => void;
  private readonly bases: UrlSigningKeysServiceOptions['bases'];

  constructor(options: UrlSigningKeysServiceOptions) {
    super();
    ({ repo: this.repo, clock: this.clock, rateLimiter: this.rateLimiter, bases: this.bases } = options);
    this.onTouchError = options.onTouchError ?? (() => {});
  }

  view(key: UrlSigningKeyRecord): UrlSigningKeyView {
    return {
      id: key.id,
      label: key.label,
      prefix: key.prefix,
      monthlyCreditLimit: key.monthlyCreditLimit,
      maxAgeSeconds: key.maxAgeSeconds,
      creditsSpentThisMonth: key.spentMonth === utcMonth(this.clock.now()) ? key.spentCredits : 0,
      createdAt: new Date(key.createdAt).toISOString(),
      lastUsedAt: iso(key.lastUsedAt),
      revoked: key.revokedAt !== null,
      revokedAt: iso(key.revokedAt),
    };
  }

  async create(
    workspaceId: string,
    input: { label: string; monthlyCreditLimit?: number | null; maxAgeSeconds?: number },
  ): Promise<UrlSigningKeyView & { secret: string }> {
    if ((await this.repo.countActive(workspaceId)) >= MAX_ACTIVE_KEYS) {
      throw new ProblemError('key_limit_reached', {
        detail: `A workspace can hold at most ${MAX_ACTIVE_KEYS} active URL signing keys. Revoke unused keys first.`,
      });
    }
    const secret = SIGNING_SECRET_PREFIX + randomBytes(32).toString('base64url');
    const record = await this.repo.insert({
      id: newId('usk'),
      workspaceId,
      label: input.label.trim() || input.label,
      // As API keys show theirs: the type prefix and the first six characters.
      prefix: secret.slice(0, SIGNING_SECRET_PREFIX.length + 6),
      signingKey: signingKeyOf(secret).toString('hex'),
      monthlyCreditLimit: input.monthlyCreditLimit ?? null,
      maxAgeSeconds: input.maxAgeSeconds ?? DEFAULT_SIGNED_MAX_AGE_SECONDS,
      createdAt: this.clock.now(),
    });
    return { ...this.view(record), secret };
  }

  async list(workspaceId: string): Promise<UrlSigningKeyView[]> {
    return (await this.repo.listByWorkspace(workspaceId)).map((k) => this.view(k));
  }

  async revoke(workspaceId: string, id: string): Promise<UrlSigningKeyView> {
    const key = await this.repo.revoke(workspaceId, id, this.clock.now());
    if (!key) throw new ProblemError('not_found', { detail: `No URL signing key ${id} in this workspace.` });
    return this.view(key);
  }

  /**
   * Signs `unsignedTarget` (a recipe URL's path and query) with a key of the workspace, expiring at
   * `expiresAt` (RFC 3339) or `expiresInSeconds` from now, or never: the signed target and its
   * expiry (whole seconds, as `exp` carries it). 404 for another workspace's key, 409 for a revoked one.
   */
  async signTarget(
    workspaceId: string,
    id: string,
    unsignedTarget: string,
    expiry: { expiresAt?: string; expiresInSeconds?: number },
  ): Promise<{ target: string; expiresAt: number | null }> {
    const exp = this.expiryOf(expiry);
    const key = await this.activeKey(workspaceId, id);
    return { target: signTarget(Buffer.from(key.signingKey, 'hex'), unsignedTarget, key.id, exp), expiresAt: exp };
  }

  /**
   * When a signed URL given `expiresAt` (RFC 3339) or `expiresInSeconds` from now expires, in whole
   * unix seconds (null: never); 400 naming the field when that is not in the future.
   */
  expiryOf(expiry: { expiresAt?: string; expiresInSeconds?: number }): number | null {
    const now = this.clock.now();
    const at =
      expiry.expiresAt !== undefined
        ? Date.parse(expiry.expiresAt)
        : expiry.expiresInSeconds !== undefined
          ? now + expiry.expiresInSeconds * 1000
          : null;
    const exp = at === null ? null : Math.floor(at / 1000);
    if (exp !== null && exp * 1000 <= now) {
      const path = expiry.expiresAt !== undefined ? 'body.expiresAt' : 'body.expiresInSeconds';
      throw new ProblemError('validation_failed', {
        detail: `${path} must be in the future`,
        issues: [{ path, message: 'must be in the future', keyword: 'minimum' }],
      });
    }
    return exp;
  }

  /** A key of the workspace that may sign: 404 for another workspace's (or none), 409 for a revoked one. */
  async activeKey(workspaceId: string, id: string): Promise<UrlSigningKeyRecord> {
    const key = await this.repo.findInWorkspace(workspaceId, id);
    if (!key) throw new ProblemError('not_found', { detail: `No URL signing key ${id} in this workspace.` });
    if (key.revokedAt !== null)
      throw new ProblemError('conflict', { detail: `The URL signing key ${id} is revoked: sign with an active key.` });
    return key;
  }

  /** A key of the workspace, revoked or not (its bases are listed and deleted either way); 404 for another workspace's. */
  async keyOf(workspaceId: string, id: string): Promise<UrlSigningKeyRecord> {
    const key = await this.repo.findInWorkspace(workspaceId, id);
    if (!key) throw new ProblemError('not_found', { detail: `No URL signing key ${id} in this workspace.` });
    return key;
  }

  /** The signature of a base's URLs (`/v1/bases/<id>/<sig>.<ext>`), signed with its key, which must be active. */
  async signBase(workspaceId: string, base: Pick<SigningBaseRecord, 'id' | 'keyId' | 'definition'>, extension: string): Promise<string> {
    const key = await this.activeKey(workspaceId, base.keyId);
    return sign(Buffer.from(key.signingKey, 'hex'), baseSignatureMessage(base, extension));
  }

  /** The signature of a base's URLs with a key already read (listing a key's bases). */
  baseSignature(
    key: Pick<UrlSigningKeyRecord, 'signingKey'>,
    base: Pick<SigningBaseRecord, 'id' | 'keyId' | 'definition'>,
    extension: string,
  ): string {
    return sign(Buffer.from(key.signingKey, 'hex'), baseSignatureMessage(base, extension));
  }

  /**
   * Verifies a signed request target (raw, as received). Undefined when it is not a signed request.
   * The signature is checked before the expiry, so only a genuine URL learns it expired (410).
   */
  async verifyRequest(rawTarget: string): Promise<SignedCheck | undefined> {
    const base = BASE_URL_PATH.exec(rawTarget);
    if (base) return this.verifyBase(base[1]!, base[2]!);
    const target = canonicalSignedTarget(rawTarget);
    if (!target.signed) return undefined;
    if (!target.ok) return this.refuse('signature', PROBLEM_DETAILS[target.problem]);
    const key = await this.repo.findById(target.keyId);
    if (!key) return this.refuse('signature', 'No such URL signing key (kid).');
    if (!verify(Buffer.from(key.signingKey, 'hex'), target.message, target.signature))
      return this.refuse('signature', 'The signature does not match the URL: a parameter was changed, added, removed or reordered.');
    return this.grant(key, target.expiresAt);
  }

  private refuse(reason: SignedUrlRefusal, detail: string, status: 401 | 410 = 401): SignedCheck {
    this.emit('refused', reason);
    return { ok: false, status, detail };
  }

  /** A genuine signature's key: refused when revoked, or past `expiresAt` (unix seconds); else the grant. */
  private grant(key: UrlSigningKeyRecord, expiresAt: number | null): SignedCheck {
    if (key.revokedAt !== null) return this.refuse('revoked', 'This URL signing key has been revoked.');
    const now = this.clock.now();
    let maxAgeSeconds = key.maxAgeSeconds;
    if (expiresAt !== null) {
      const left = expiresAt - Math.floor(now / 1000);
      if (left <= 0) return this.refuse('expired', 'This signed URL has expired (exp); sign a new one.', 410);
      maxAgeSeconds = Math.min(maxAgeSeconds, left);
    }
    if (key.lastUsedAt === null || now - key.lastUsedAt >= TOUCH_INTERVAL_MS) this.repo.touch(key.id, now).catch(this.onTouchError);
    return { ok: true, grant: { keyId: key.id, workspaceId: key.workspaceId, maxAgeSeconds } };
  }

  /**
   * A base URL (`/v1/bases/<baseId>/<sig>.<ext>`, raw path segments): its base, read by id, and the
   * base's key, whose HMAC over the base (baseSignatureMessage) must be `sig`. An unknown (or deleted)
   * base, a wrong signature or extension and a revoked key are 401; past the base's expiry 410.
   */
  private async verifyBase(baseId: string, file: string): Promise<SignedCheck> {
    const parts = BASE_URL_FILE.exec(file);
    if (!parts)
      return this.refuse('signature', 'A base URL ends with its signature and the extension of its format: /v1/bases/<id>/<sig>.<ext>.');
    const base = this.bases ? await this.bases.findById(baseId) : undefined;
    if (!base) return this.refuse('signature', 'No such signed base.');
    const key = await this.repo.findById(base.keyId);
    if (!key || !verify(Buffer.from(key.signingKey, 'hex'), baseSignatureMessage(base, parts[2]!), parts[1]!))
      return this.refuse('signature', 'The signature does not match this base URL.');
    return this.grant(key, base.expiresAt === null ? null : Math.floor(base.expiresAt / 1000));
  }

  /**
   * A signed miss: counts against the key's rate limit, then, in one transaction, adds `cost` to the
   * key's spending this month (402 signing_key_limit_reached over its limit) and runs `reserve` (the
   * credit reservation, which may refuse with 402 insufficient_credits and then undoes the spending).
   * Returns the month spent in, for giveBack.
   */
  async spend<T>(keyId: string, cost: number, reserve: (trx: Transaction) => Promise<T>): Promise<{ month: string; value: T }> {
    const decision = await this.rateLimiter.consumeSignedMiss(keyId);
    if (!decision.allowed) {
      this.emit('refused', 'rate_limited');
      throw new ProblemError('rate_limited', { detail: decision.detail, headers: decision.headers });
    }
    const month = utcMonth(this.clock.now());
    let spent: { outcome: SpendOutcome; value?: T };
    try {
      spent = await this.repo.spendWithinLimit(keyId, month, cost, reserve);
    } catch (err) {
      if (err instanceof ProblemError && err.code === 'insufficient_credits') this.emit('refused', 'balance');
      throw err;
    }
    const { outcome } = spent;
    if (!outcome.ok) {
      if (outcome.reason === 'revoked') {
        this.emit('refused', 'revoked');
        throw new ProblemError('unauthorized', { detail: 'This URL signing key has been revoked.' });
      }
      this.emit('refused', 'limit');
      // Told to whoever holds the URL: no limit, no spending (the workspace reads them in its key list);
      // the HTTP layer words it for an anonymous caller (src/http/public-answer.ts).
      throw new ProblemError('signing_key_limit_reached');
    }
    return { month, value: spent.value as T };
  }

  /** Undoes spend (the render failed or turned out not to be charged). */
  async giveBack(keyId: string, month: string, cost: number): Promise<void> {
    await this.repo.giveBack(keyId, month, cost);
  }
}
