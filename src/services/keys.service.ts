// API keys of a workspace: create (the secret is shown once), list, revoke, and verify a bearer.
// Secrets carry 190 random bits, so a plain sha256 is the right stored form (no salt or slow hash
// needed: nothing to brute-force); verification looks the hash up and compares in constant time.
// With a revocation feed (Postgres), verified keys are kept in memory while the feed is listening.
import { timingSafeEqual } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { randomBase62 } from '../lib/ids.ts';
import type { ApiKeyRecord, ApiKeysRepository } from '../../db/repositories/api-keys.repository.ts';
import type { SpendOutcome } from '../../db/repositories/monthly-spending.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Clock } from '../lib/clock.ts';
import { sha256Hex } from '../lib/hashing.ts';
import type { KeyRevocationFeed } from './key-revocations.ts';
import type { Transaction } from '../../db/database.ts';
import { insufficientScope, type KeyScope, SCOPE_NAMES } from './key-scopes.ts';

/** Hosted keys; local-mode keys start with `svc_local_` so the two can never be confused. */
export const LIVE_KEY_PREFIX = 'svc_live_';
export const LOCAL_KEY_PREFIX = 'svc_local_';
/** Active keys a workspace may hold; more is almost always a leak waiting to happen. */
export const MAX_ACTIVE_KEYS = 100;
/** lastUsedAt is written at most this often per key, so authentication is not a write per request. */
const TOUCH_INTERVAL_MS = 60_000;
/** A verified key is kept at most this long even while the feed listens (a bound should a notification ever be lost). */
export const VERIFIED_KEY_TTL_MS = 60_000;
/** The UTC calendar month of a time, 'YYYY-MM': what a key's monthly spending counts by (API and URL signing keys). */
export const utcMonth = (ms: number) => new Date(ms).toISOString().slice(0, 7);
/** Verified keys kept in memory at most; the oldest goes first. */
const MAX_VERIFIED_KEYS = 10_000;

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
  /** null: every scope. */
  scopes: KeyScope[] | null;
  monthlyCreditLimit: number | null;
  creditsSpentThisMonth: number;
  createdAt: string;
  lastUsedAt: string | null;
  revoked: boolean;
  revokedAt: string | null;
}

/** What a new key may do: `scopes` absent or null for every scope; `monthlyCreditLimit` null for no limit. */
export interface KeyGrant {
  scopes?: readonly KeyScope[] | null;
  monthlyCreditLimit?: number | null;
}

export type KeyCheck = { ok: true; key: ApiKeyRecord } | { ok: false; reason: 'invalid' | 'revoked' };

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The key as listed; `now` decides whether its recorded spending is this month's. */
export function toView(key: ApiKeyRecord, now: number): ApiKeyView {
  return {
    id: key.id,
    label: key.label,
    prefix: key.prefix,
    scopes: key.scopes as KeyScope[] | null,
    monthlyCreditLimit: key.monthlyCreditLimit,
    creditsSpentThisMonth: key.spentMonth === utcMonth(now) ? key.spentCredits : 0,
    createdAt: new Date(key.createdAt).toISOString(),
    lastUsedAt: iso(key.lastUsedAt),
    revoked: key.revokedAt !== null,
    revokedAt: iso(key.revokedAt),
  };
}

/** What tests wait on: `caching` when keeping verified keys starts (true) or stops (false), `forgotten` when a revoked key leaves memory. */
type KeysEvents = { caching: [on: boolean]; forgotten: [keyId: string] };

export interface KeysServiceOptions {
  repo: ApiKeysRepository;
  clock: Clock;
  /** Local mode issues `svc_local_` keys, hosted mode `svc_live_` keys. */
  localMode: boolean;
  /** A failed write of lastUsedAt; it never fails the request. Ignored by default. */
  onTouchError?: (err: unknown) => void;
  /** Revocations announced by every process (Postgres); without it every verification reads the database. */
  revocations?: KeyRevocationFeed | null;
}

/** Why a key's spending was refused, as the caller holding the key is told it (a signed URL's caller is told neither figure). */
function spendRefused(outcome: Exclude<SpendOutcome, { ok: true }>, cost: number, what: 'render' | 'export'): ProblemError {
  if (outcome.reason === 'revoked') return new ProblemError('unauthorized', { detail: 'This API key has been revoked.' });
  return new ProblemError('signing_key_limit_reached', {
    detail: `This ${what} costs ${cost} credits and would pass this API key's monthly limit of ${outcome.limit} (${outcome.spent} spent this UTC month). Raise it with a new key, or wait for the next month.`,
    extra: { cost, monthlyCreditLimit: outcome.limit, creditsSpentThisMonth: outcome.spent },
  });
}

export class KeysService extends EventEmitter<KeysEvents> {
  /** Verified, unrevoked keys by secret hash, each until its expiry; empty whenever the feed is not listening. */
  private readonly verified = new Map<string, { key: ApiKeyRecord; until: number }>();
  private listening = false;
  /**
   * Bumped by every revocation and every change of the feed's state: a database read that began
   * before one of them may be older than it, so its key is used but not kept.
   */
  private generation = 0;

  private readonly repo: ApiKeysRepository;
  private readonly clock: Clock;
  private readonly localMode: boolean;
  private readonly onTouchError: (err: unknown) => void;
  private readonly revocations: KeyRevocationFeed | null;

  constructor(options: KeysServiceOptions) {
    super();
    ({ repo: this.repo, clock: this.clock, localMode: this.localMode } = options);
    this.onTouchError = options.onTouchError ?? (() => {});
    this.revocations = options.revocations ?? null;
  }

  /** Starts hearing revocations (and so keeping verified keys); a no-op without a feed. */
  async listenForRevocations(): Promise<void> {
    await this.revocations?.listen({
      revoked: (keyId) => this.forget(keyId),
      interrupted: () => this.setListening(false),
      resumed: () => this.setListening(true),
    });
  }

  async close(): Promise<void> {
    await this.revocations?.close();
  }

  private setListening(on: boolean): void {
    this.generation++;
    this.verified.clear();
    if (this.listening === on) return;
    this.listening = on;
    this.emit('caching', on);
  }

  private forget(keyId: string): void {
    this.generation++;
    for (const [hash, entry] of this.verified) if (entry.key.id === keyId) this.verified.delete(hash);
    this.emit('forgotten', keyId);
  }

  /** The key behind a secret hash: from memory while that is safe, else from the database (kept when it may be). */
  private async lookUp(secretHash: string, now: number): Promise<ApiKeyRecord | undefined> {
    const kept = this.verified.get(secretHash);
    if (kept && kept.until > now) return kept.key;
    if (kept) this.verified.delete(secretHash);
    const generation = this.generation;
    const key = await this.repo.findByHash(secretHash);
    if (key && key.revokedAt === null && this.listening && generation === this.generation) {
      if (this.verified.size >= MAX_VERIFIED_KEYS) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(secretHash, { key, until: now + VERIFIED_KEY_TTL_MS });
    }
    return key;
  }

  /**
   * A new key. `creator`, the principal asking, bounds it: a key that itself has scopes may create
   * keys only within them and must name them (403 insufficient_scope otherwise), so `keys:manage`
   * never widens what a key can reach.
   */
  async create(
    workspaceId: string,
    label: string,
    grant: KeyGrant = {},
    creator?: { scopes?: readonly KeyScope[] },
  ): Promise<ApiKeyView & { secret: string }> {
    // Kept in the catalogue's order, each once, whatever order the caller sent.
    const scopes = grant.scopes ? SCOPE_NAMES.filter((s) => grant.scopes!.includes(s)) : null;
    if (creator?.scopes) {
      const beyond = (scopes ?? SCOPE_NAMES).find((s) => !creator.scopes!.includes(s));
      if (beyond) throw insufficientScope(beyond, scopes ? 'Creating a key with this scope' : 'Creating a key with every scope');
    }
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
      scopes,
      monthlyCreditLimit: grant.monthlyCreditLimit ?? null,
      createdAt: this.clock.now(),
    });
    return { ...toView(record, this.clock.now()), secret };
  }

  async list(workspaceId: string): Promise<ApiKeyView[]> {
    const now = this.clock.now();
    return (await this.repo.listByWorkspace(workspaceId)).map((k) => toView(k, now));
  }

  async revoke(workspaceId: string, id: string): Promise<ApiKeyView> {
    const key = await this.repo.revoke(workspaceId, id, this.clock.now());
    if (!key) throw new ProblemError('not_found', { detail: `No key ${id} in this workspace.` });
    // This process forgets it at once; the others when the revocation's notification reaches them.
    this.forget(key.id);
    return toView(key, this.clock.now());
  }

  /**
   * A render's cost through an API key: in one transaction, adds `cost` to the key's spending this
   * month (402 signing_key_limit_reached over its monthlyCreditLimit, as for a URL signing key) and
   * runs `reserve` (the credit reservation, which may refuse with 402 insufficient_credits and then
   * undoes the spending). A key without a limit is counted too, so its listing shows the month's
   * spending. Returns the month spent in, for giveBack.
   */
  async spend<T>(keyId: string, cost: number, reserve: (trx: Transaction) => Promise<T>): Promise<{ month: string; value: T }> {
    const month = utcMonth(this.clock.now());
    const { outcome, value } = await this.repo.spendWithinLimit(keyId, month, cost, reserve);
    if (!outcome.ok) throw spendRefused(outcome, cost, 'render');
    return { month, value: value as T };
  }

  /**
   * spend inside the caller's transaction, for an export job (its row, credit hold and queue message
   * commit together with the spending): throws as spend does, and the caller's transaction rolls
   * back. Returns the month spent in, which the job keeps to give the spending back by.
   */
  async spendIn(trx: Transaction, keyId: string, cost: number): Promise<string> {
    const month = utcMonth(this.clock.now());
    const outcome = await this.repo.spendIn(trx, keyId, month, cost);
    if (!outcome.ok) throw spendRefused(outcome, cost, 'export');
    return month;
  }

  /** Undoes spend (the render failed or turned out not to be charged). */
  async giveBack(keyId: string, month: string, cost: number): Promise<void> {
    await this.repo.giveBack(keyId, month, cost);
  }

  /**
   * Verifies a persisted key. Without a revocation feed every call reads the database; with one, a
   * verified key is kept in memory until it is revoked anywhere, the feed stops listening, or
   * VERIFIED_KEY_TTL_MS passes.
   */
  async verify(secret: string): Promise<KeyCheck> {
    const wantedHash = sha256Hex(secret);
    const now = this.clock.now();
    const key = await this.lookUp(wantedHash, now);
    if (!key || !timingSafeEqual(Buffer.from(key.secretHash, 'hex'), Buffer.from(wantedHash, 'hex')))
      return { ok: false, reason: 'invalid' };
    // Each mode honours only its own keys, even ones that found their way into its database: hosted
    // mode no local key, local mode (which bills nothing) no customer's `svc_live_` key.
    if (this.localMode !== key.prefix.startsWith(LOCAL_KEY_PREFIX)) return { ok: false, reason: 'invalid' };
    if (key.revokedAt !== null) return { ok: false, reason: 'revoked' };
    if (key.lastUsedAt === null || now - key.lastUsedAt >= TOUCH_INTERVAL_MS) {
      // Not awaited: bookkeeping must not slow down or fail the request. Noted on the record too, so
      // a key kept in memory is not touched on every request.
      key.lastUsedAt = now;
      this.repo.touch(key.id, now).catch(this.onTouchError);
    }
    return { ok: true, key };
  }
}
