// Hosted renders pay from the workspace's credit balance in two phases: reserve the cost before
// any work, then commit it on success or release it on failure, cancel, client abort or timeout.
// A reservation whose process died is released by the sweeper once it expires. Local mode
// performs no credit checks.
import { retryWhileUnavailable, unavailableDependency } from '../lib/dependency-failure.ts';
import { type DependencyStatus, logFailure } from '../lib/dependency-status.ts';
import { EventEmitter } from 'node:events';
import { newId } from '../lib/ids.ts';
import type { LedgerEvent } from '../lib/metrics.ts';
import type { Logger } from 'pino';
import type { Transaction } from '../../db/database.ts';
import type { CreditsRepository } from '../../db/repositories/credits.repository.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Clock } from '../lib/clock.ts';

export interface Balance {
  credits: number;
  reserved: number;
  available: number;
}

export interface Reservation {
  id: string;
  workspaceId: string;
  amount: number;
}

export interface CreditEntry {
  /** The entry's id: posting the same id twice changes the balance once. */
  id: string;
  workspaceId: string;
  kind: 'purchase' | 'grant' | 'refund';
  /** Credits added; negative for a refund. */
  amount: number;
  /** What it is about (a purchase id, a grant's ticket). */
  reference: string;
  description: string;
}

/** How long a reservation may stay pending before the sweeper assumes its holder died. */
export const DEFAULT_RESERVATION_TTL_MS = 10 * 60_000;
export const BUY_CREDITS_HINT = 'Buy credits with POST /v1/billing/checkout.';
export const NO_BILLING_HINT =
  'Billing is not configured on this service: its operator grants credits (render-service admin credits grant).';

/**
 * How long a balance this process read or moved answers X-Service-Credits-Remaining for a render that
 * charged nothing (a cache hit) before it is read again. A charge always answers the balance it left.
 */
export const BALANCE_MEMO_MS = 1_000;
/** Workspaces whose last balance is remembered at most (the memo is emptied past it). */
const BALANCE_MEMO_MAX = 10_000;

/** Every movement of credits, for the metrics: an event and its amount; `charged`: a reservation committed (budgets listen). */
interface CreditsEvents {
  ledger: [event: LedgerEvent, amount: number];
  charged: [workspaceId: string, amount: number];
}

export interface CreditsServiceOptions {
  repo: CreditsRepository;
  clock: Clock;
  /** False in local mode: no checks, no ledger. */
  enabled: boolean;
  logger: Logger;
  /** Told when the database is away (the sweeper's failures then are part of an outage logged there once). */
  dependencies?: DependencyStatus;
  /** How long a reservation may stay pending; DEFAULT_RESERVATION_TTL_MS unless told. */
  reservationTtlMs?: number;
  /** How a workspace gets credits here, told in every 402: buying them when billing is configured, else from the operator. */
  topUpHint?: string;
}

export class CreditsService extends EventEmitter<CreditsEvents> {
  private sweeper: NodeJS.Timeout | undefined;
  /** Settlements waiting for the database to come back (settleEventually). */
  private readonly lateSettlements = new Set<Promise<void>>();

  /** False in local mode: no checks, no ledger. */
  readonly enabled: boolean;
  private readonly repo: CreditsRepository;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly dependencies: DependencyStatus | undefined;

  constructor(options: CreditsServiceOptions) {
    super();
    ({ repo: this.repo, clock: this.clock, enabled: this.enabled, logger: this.logger, dependencies: this.dependencies } = options);
    this.reservationTtlMs = options.reservationTtlMs ?? DEFAULT_RESERVATION_TTL_MS;
    this.topUpHint = options.topUpHint ?? BUY_CREDITS_HINT;
  }

  private readonly reservationTtlMs: number;
  private readonly topUpHint: string;

  async balance(workspaceId: string): Promise<Balance> {
    const { credits, reserved } = await this.repo.balance(workspaceId);
    this.remember(workspaceId, credits - reserved);
    return { credits, reserved, available: credits - reserved };
  }

  /** The last available balance this process saw for each workspace, and when (see BALANCE_MEMO_MS). */
  private readonly lastAvailable = new Map<string, { available: number; at: number }>();

  private remember(workspaceId: string, available: number): void {
    if (this.lastAvailable.size >= BALANCE_MEMO_MAX) this.lastAvailable.clear();
    this.lastAvailable.set(workspaceId, { available, at: this.clock.now() });
  }

  /**
   * The workspace's available balance for X-Service-Credits-Remaining; undefined in local mode (no
   * balance). The balance a charge left is remembered by the charge (read in its own transaction), so
   * a charged render adds no query; a render that charged nothing (a hit) answers the balance this
   * process saw within BALANCE_MEMO_MS, and reads it once otherwise.
   */
  async remaining(workspaceId: string): Promise<number | undefined> {
    if (!this.enabled) return undefined;
    const known = this.lastAvailable.get(workspaceId);
    if (known && this.clock.now() - known.at <= BALANCE_MEMO_MS) return known.available;
    return (await this.balance(workspaceId)).available;
  }

  /**
   * Holds `amount` credits or throws 402 insufficient_credits; null when credits are off. With
   * `trx` the hold commits (or rolls back) with the caller's transaction.
   */
  async reserve(
    workspaceId: string,
    amount: number,
    reference: string,
    description: string,
    ttlMs = this.reservationTtlMs,
    trx?: Transaction,
  ): Promise<Reservation | null> {
    if (!this.enabled) return null;
    const id = newId('res');
    const now = this.clock.now();
    const held = await this.repo.reserve({ id, workspaceId, amount, reference, description, expiresAt: now + ttlMs }, now, trx);
    if (!held) {
      const balance = await this.balance(workspaceId);
      // Its `balance` answers X-Service-Credits-Remaining on the 402 (src/http/problem-response.ts).
      throw new ProblemError('insufficient_credits', {
        detail: `This costs ${amount} ${amount === 1 ? 'credit' : 'credits'} and ${balance.available} ${balance.available === 1 ? 'is' : 'are'} available. ${this.topUpHint}`,
        extra: { cost: amount, balance },
      });
    }
    this.remember(workspaceId, held.available);
    this.emit('ledger', 'reserved', amount);
    return { id, workspaceId, amount };
  }

  async reservationAmount(id: string): Promise<number | undefined> {
    return this.repo.entryAmount(id);
  }

  /** Settles by id (a job keeps only its reservation's id). */
  async commitId(id: string | null): Promise<void> {
    if (id) await this.settle(id, 'committed');
  }

  async releaseId(id: string | null): Promise<void> {
    if (id) await this.settle(id, 'released');
  }

  async commit(reservation: Reservation | null): Promise<void> {
    if (reservation) await this.settle(reservation.id, 'committed', reservation.amount);
  }

  async release(reservation: Reservation | null): Promise<void> {
    if (reservation) await this.settle(reservation.id, 'released', reservation.amount);
  }

  /**
   * Settles a reservation now or, while the database is unavailable, as soon as it is back (in the
   * background, for up to the reservation's lifetime): a render that was delivered is owed, and one
   * that failed is not, whether or not the database answered at that moment. Other failures throw.
   */
  async settleEventually(reservation: Reservation | null, to: 'committed' | 'released'): Promise<void> {
    if (!reservation) return;
    const settle = () => this.settle(reservation.id, to, reservation.amount);
    try {
      await settle();
    } catch (err) {
      if (!unavailableDependency(err)) throw err;
      const late = retryWhileUnavailable(settle, { dependency: 'database', maxWaitMs: this.reservationTtlMs, maxDelayMs: 2_000 }).then(
        () => this.logger.info({ reservation: reservation.id, to }, 'credit reservation settled after the database came back'),
        (lateErr: unknown) =>
          this.logger.error({ err: lateErr, reservation: reservation.id, to }, 'credit reservation not settled: the sweeper releases it'),
      );
      this.lateSettlements.add(late);
      void late.finally(() => this.lateSettlements.delete(late));
    }
  }

  /** Resolves when every settlement waiting for the database has landed (or given up), or after `timeoutMs`. */
  async settled(timeoutMs = Infinity): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      if (Number.isFinite(timeoutMs)) timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.allSettled([...this.lateSettlements]), timeout]).finally(() => clearTimeout(timer));
  }

  private async settle(id: string, to: 'committed' | 'released', amount?: number): Promise<boolean> {
    const now = this.clock.now();
    const moved = to === 'committed' ? await this.repo.commit(id, now) : await this.repo.release(id, now);
    if (!moved) return false;
    this.remember(moved.workspaceId, moved.available);
    this.emit('ledger', to, amount ?? moved.amount);
    if (to === 'committed') this.emit('charged', moved.workspaceId, moved.amount);
    return true;
  }

  /** Credits the workspace's renders and jobs were charged in [from, to) (epoch ms), by the ledger. */
  async spentBetween(workspaceId: string, from: number, to: number): Promise<number> {
    return this.repo.committedBetween(workspaceId, from, to);
  }

  /**
   * Posts a ledger entry: credits added (a purchase or a grant) or taken back (a refund, a negative
   * amount). Idempotent per `id`: false when that entry exists already. With `trx` it commits (or
   * rolls back) with the caller's transaction.
   */
  async add(entry: CreditEntry, trx?: Transaction): Promise<boolean> {
    const posted = await this.repo.post(entry, this.clock.now(), trx);
    if (posted && entry.amount > 0) this.emit('ledger', 'granted', entry.amount);
    return posted;
  }

  /**
   * Takes credits back (an operator's adjustment, recorded as a ledger entry with its reason);
   * 402 insufficient_credits when the available balance does not cover it, and nothing changes.
   */
  async deduct(entry: { workspaceId: string; amount: number; reference: string; description: string }): Promise<void> {
    if (!(await this.repo.deduct({ id: newId('adj'), ...entry }, this.clock.now()))) {
      const balance = await this.balance(entry.workspaceId);
      throw new ProblemError('insufficient_credits', {
        detail: `Taking ${entry.amount} back needs ${entry.amount} available credits; ${balance.available} are.`,
        extra: { cost: entry.amount, balance },
      });
    }
    this.emit('ledger', 'deducted', entry.amount);
  }

  /** Releases reservations left pending past their expiry; returns how many. */
  async sweepExpired(): Promise<number> {
    const now = this.clock.now();
    let released = 0;
    for (const entry of await this.repo.expiredReservations(now)) {
      if (await this.settle(entry.id, 'released', entry.amount)) released++;
    }
    if (released > 0) this.logger.warn({ released }, 'released expired credit reservations');
    return released;
  }

  startSweeper(intervalMs = 60_000): void {
    if (!this.enabled || this.sweeper) return;
    const tick = () =>
      this.sweepExpired().catch((err: unknown) =>
        logFailure(this.dependencies, this.logger, 'error', { err }, 'credit reservation sweep failed'),
      );
    void tick();
    this.sweeper = setInterval(tick, intervalMs);
    this.sweeper.unref();
  }

  stopSweeper(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
