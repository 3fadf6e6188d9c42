// Renders on behalf of a workspace: a cache hit is free; a miss reserves its cost before any work
// and commits it only when the render succeeds (released on failure, abort or timeout). Identical
// requests in flight at once coalesce here: the first (the leader) reserves, renders and pays;
// the others (followers) wait for it and cost what a hit costs, answered `COALESCED`. A render
// that fails fails its followers too (they pay nothing, as the leader pays nothing). A leader that
// drops out for a reason of its own — its client left, or its workspace could not pay — hands
// over: the followers try again, and one of them leads and pays. Every render is recorded as usage.
// A miss through a signed URL also counts against its signing key's monthly limit, and a miss through
// a persisted API key against that key's, in the transaction that reserves the credits (local mode,
// which reserves nothing, counts it too): one path for both kinds of key (limitedKey).
// An export job's render is charged by the same rule when its runner settles it (settleJob), and
// gives back what it counted against its API key's month when it is not charged.
import { FORMATS } from '../lib/formats.ts';
import type { ResolvedRecipe } from '../engine/recipe.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Principal } from './auth.service.ts';
import type { CreditsService } from './credits.service.ts';
import { type CacheStatus, chargeFor, chargeNow, renderCost } from './pricing.ts';
import { type RenderResult, type RenderService, cacheKey } from './render.service.ts';
import { raceSignal } from '../lib/race-signal.ts';
import type { Transaction } from '../../db/database.ts';
import type { UsageService } from './usage.service.ts';
import type { UrlSigningKeysService } from './url-signing-keys.service.ts';
import type { Reservation } from './credits.service.ts';

export interface MeteredCall {
  principal: Principal;
  /** The operationId, recorded with the usage. */
  operation: string;
  signal?: AbortSignal;
}

export interface MeteredResult extends Omit<RenderResult, 'cache'> {
  cache: CacheStatus;
  /** Credits charged (0 for a hit or a coalesced request, and always 0 in local mode). */
  credits: number;
}

/** The credits a metered render needs: synchronous renders reserve and settle; export jobs settle their hold by id. */
export type MeteredCredits = Pick<
  CreditsService,
  'reserve' | 'settleEventually' | 'commitId' | 'releaseId' | 'reservationAmount' | 'enabled'
>;

export interface MeteredRenderOptions {
  render: Pick<RenderService, 'cached' | 'cachedInMemory' | 'renderUncached'>;
  credits: MeteredCredits;
  usage: Pick<UsageService, 'record'>;
  /** Signed-URL renders count against their signing key's monthly limit; absent, none are counted. */
  signingKeys?: Pick<UrlSigningKeysService, 'spend' | 'giveBack'> | null;
  /** Renders through a persisted API key count against its monthly limit; absent, none are counted. */
  apiKeys?: KeySpending | null;
  /**
   * Gives back what an export job counted against its API key's month, once (the job row records it:
   * JobsRepository.returnKeySpending); absent, settleJob gives nothing back.
   */
  jobKeySpending?: { returnKeySpending(jobId: string): Promise<unknown> } | null;
}

/** A kind of key whose renders count against a monthly credit limit (URL signing keys, API keys). */
export type KeySpending = Pick<UrlSigningKeysService, 'spend' | 'giveBack'>;

/** An export job's credit hold, as its runner settles it. */
export interface JobHold {
  /** The job's id: what it counted against its API key is given back by it. */
  id: string;
  /** The reservation taken at submission; null when nothing was held (a cached result, local mode). */
  reservationId: string | null;
  /** Attempts so far, this one included. */
  attempts: number;
}

/** How a leader's render ended, as its followers see it. */
type LeaderOutcome = { ok: true; bytes: Buffer } | { ok: false; error: unknown; handOver: boolean };

export class MeteredRenderService {
  /** Renders this process is leading, by cache key (coalescing is per process, like the render single-flight). */
  private readonly leaders = new Map<string, Promise<LeaderOutcome>>();

  private readonly render: MeteredRenderOptions['render'];
  private readonly credits: MeteredCredits;
  private readonly usage: MeteredRenderOptions['usage'];
  private readonly signingKeys: KeySpending | null;
  private readonly apiKeys: KeySpending | null;
  private readonly jobKeySpending: MeteredRenderOptions['jobKeySpending'];

  constructor(options: MeteredRenderOptions) {
    ({ render: this.render, credits: this.credits, usage: this.usage } = options);
    this.signingKeys = options.signingKeys ?? null;
    this.apiKeys = options.apiKeys ?? null;
    this.jobKeySpending = options.jobKeySpending ?? null;
  }

  /** The kind of key whose monthly limit a render by `principal` counts against, and its id; undefined for none. */
  private limitedKey(principal: Principal): { keys: KeySpending; keyId: string } | undefined {
    const { keyId } = principal;
    if (keyId === undefined) return undefined;
    const keys = principal.method === 'signed_url' ? this.signingKeys : principal.method === 'api_key' ? this.apiKeys : null;
    return keys ? { keys, keyId } : undefined;
  }

  async renderMetered(resolved: ResolvedRecipe, call: MeteredCall): Promise<MeteredResult> {
    const started = performance.now();
    const result = await this.obtain(resolved, call);
    this.recordUsage(resolved, call, result, started);
    return result;
  }

  /**
   * What renderMetered would charge for the recipe if it were asked now, without rendering or
   * reserving anything: nothing for a result in the render cache (a HIT), its cost otherwise
   * (chargeNow), and nothing in local mode, which reserves nothing. POST /v1/quote answers this for
   * a render and for each distinct item of a batch. (A request that joins an identical render in
   * flight would pay nothing either; a price does not count on one.)
   */
  async price(resolved: ResolvedRecipe): Promise<{ credits: number; cached: boolean }> {
    const cached = (await this.render.cached(resolved)) !== undefined;
    return { credits: this.credits.enabled ? chargeNow(resolved, cached) : 0, cached };
  }

  /**
   * A hit this process holds in memory, priced like any hit, or undefined, without any I/O: the lean
   * request path (src/http/lean-hit.path.ts) answers only these, and records them with recordUsage.
   */
  inMemoryHit(resolved: ResolvedRecipe): MeteredResult | undefined {
    const bytes = this.render.cachedInMemory(resolved);
    return bytes && this.hit(resolved, bytes);
  }

  private hit(resolved: ResolvedRecipe, bytes: Buffer): MeteredResult {
    return {
      bytes,
      contentType: FORMATS[resolved.recipe.format].contentType,
      cache: 'HIT',
      timings: {},
      credits: chargeFor(resolved, 'HIT'),
    };
  }

  /** Every answered render is recorded as usage (`started`: performance.now() when the request began). */
  recordUsage(resolved: ResolvedRecipe, call: MeteredCall, result: MeteredResult, started: number): void {
    void this.usage.record({
      workspaceId: call.principal.workspaceId,
      keyId: call.principal.keyId ?? null,
      keyKind: call.principal.method,
      operation: call.operation,
      generator: resolved.recipe.generator,
      format: resolved.recipe.format,
      credits: result.credits,
      bytes: result.bytes.length,
      durationMs: performance.now() - started,
      cache: result.cache,
    });
  }

  /**
   * Settles an export job's hold; resolves with the credits charged. A job that ended without a
   * result (`completed` absent: failed, cancelled, lapsed) releases it. A completed one pays as a
   * synchronous render would (chargeFor): nothing when its result came from the cache (someone
   * rendered it meanwhile), its hold otherwise — and a retried job pays regardless, since an earlier
   * attempt may have rendered that cached result. A job that does not pay also gives back what it
   * counted against its API key's month; one that pays keeps it counted. The ledger's moves and the
   * give-back are conditional, so settling again changes nothing: a caller may retry this while the
   * database is away.
   */
  async settleJob(hold: JobHold, completed?: { resolved: ResolvedRecipe; cache: CacheStatus }): Promise<number> {
    const rendered = completed !== undefined && (chargeFor(completed.resolved, completed.cache) > 0 || hold.attempts > 1);
    if (!rendered) {
      await this.credits.releaseId(hold.reservationId);
      // Only a render that ran counts against the key, as for a synchronous render.
      await this.jobKeySpending?.returnKeySpending(hold.id);
      return 0;
    }
    await this.credits.commitId(hold.reservationId);
    return this.credits.enabled && hold.reservationId ? ((await this.credits.reservationAmount(hold.reservationId)) ?? 0) : 0;
  }

  private async obtain(resolved: ResolvedRecipe, call: MeteredCall): Promise<MeteredResult> {
    const key = cacheKey(resolved);
    const contentType = FORMATS[resolved.recipe.format].contentType;
    for (;;) {
      // A leader seen before the lookup and gone after it finished meanwhile: the lookup may have read
      // the cache before the leader stored its file, so its outcome is joined, not rendered again.
      const leaderBefore = this.leaders.get(key);
      const cached = await this.render.cached(resolved);
      if (cached) return this.hit(resolved, cached);
      const leader = this.leaders.get(key) ?? leaderBefore;
      if (!leader) return this.lead(key, resolved, call);
      // Leaving the wait rejects as the render single-flight does: the abort's problem, or 499.
      const outcome = call.signal ? await raceSignal(leader, call.signal).catch(asAbortProblem) : await leader;
      if (outcome.ok)
        return { bytes: outcome.bytes, contentType, cache: 'COALESCED', timings: {}, credits: chargeFor(resolved, 'COALESCED') };
      if (!outcome.handOver) throw outcome.error;
      // The leader dropped out on its own account: look again (the cache, a new leader, or lead).
    }
  }

  /** Reserves, renders and pays; followers that arrive meanwhile wait on the outcome. */
  private async lead(key: string, resolved: ResolvedRecipe, call: MeteredCall): Promise<MeteredResult> {
    let settle!: (outcome: LeaderOutcome) => void;
    const outcome = new Promise<LeaderOutcome>((resolve) => (settle = resolve));
    this.leaders.set(key, outcome);
    try {
      const result = await this.charged(resolved, call);
      settle({ ok: true, bytes: result.bytes });
      return result;
    } catch (error) {
      // Reasons of the leader's own (its workspace or signing key cannot pay, its rate limit): another may lead.
      const handOver =
        call.signal?.aborted === true ||
        (error instanceof ProblemError &&
          ['insufficient_credits', 'signing_key_limit_reached', 'rate_limited', 'unauthorized'].includes(error.code));
      settle({ ok: false, error, handOver });
      throw error;
    } finally {
      if (this.leaders.get(key) === outcome) this.leaders.delete(key);
    }
  }

  private async charged(resolved: ResolvedRecipe, call: MeteredCall): Promise<MeteredResult> {
    const { recipe } = resolved;
    const cost = renderCost(resolved);
    const reserve = (trx?: Transaction) =>
      this.credits.reserve(
        call.principal.workspaceId,
        cost,
        resolved.hash,
        `${call.operation} ${recipe.generator} ${recipe.format}`,
        undefined,
        trx,
      );
    // The key's month is counted in the transaction that reserves: concurrent misses can never pass its limit.
    const limited = this.limitedKey(call.principal);
    let reservation: Reservation | null;
    let spent: { month: string } | undefined;
    if (limited) {
      const { month, value } = await limited.keys.spend(limited.keyId, cost, reserve);
      reservation = value;
      spent = { month };
    } else reservation = await reserve();
    const giveBack = async () => {
      if (spent && limited) await limited.keys.giveBack(limited.keyId, spent.month, cost);
    };
    let rendered: RenderResult;
    try {
      // The cache was looked up just before (obtain); a miss looks once.
      rendered = await this.render.renderUncached(resolved, { signal: call.signal });
    } catch (err) {
      await this.credits.settleEventually(reservation, 'released');
      // A database that went away leaves the key's count high by this render: on the safe side.
      await giveBack().catch(() => undefined);
      throw err;
    }
    const charged = reservation ? chargeFor(resolved, rendered.cache) : 0;
    // The file is rendered: the client gets it even if the database went away meanwhile, and the charge lands when it is back.
    await this.credits.settleEventually(reservation, charged > 0 ? 'committed' : 'released');
    // Only a render that ran counts against the key (local mode charges nothing but counts it).
    if (rendered.cache !== 'MISS') await giveBack().catch(() => undefined);
    return { ...rendered, credits: charged };
  }
}

function asAbortProblem(reason: unknown): never {
  throw reason instanceof ProblemError ? reason : new ProblemError('client_closed_request');
}
