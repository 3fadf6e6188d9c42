// A workspace's monthly budget: an amount of credits per UTC calendar month and alert thresholds
// (percentages of it). Every charge (a reservation committed, CreditsService's 'charged' event) checks
// the month's spending against the thresholds; the first charge that reaches one records it in
// budget_alerts — one row per workspace, month and threshold, so exactly one charge in any process
// wins — and that charge alone sends the `budget.threshold_crossed` webhook to the budget's
// webhookUrl, signed with the workspace's webhook secret (webhook-delivery.service.ts). A budget is an
// alert, not a limit: renders go on past 100 %.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { BudgetsRepository } from '../../db/repositories/budgets.repository.ts';
import type { Clock } from '../lib/clock.ts';
import type { CreditsService } from './credits.service.ts';
import type { WebhookDeliveryService } from './webhook-delivery.service.ts';
import { assertWebhookUrlAllowed, type WebhookUrlConfig } from './webhook-url.ts';

export const DEFAULT_ALERT_THRESHOLDS: readonly number[] = [50, 80, 100];

export interface BudgetUpdate {
  /** Credits per UTC calendar month; null removes the budget. */
  monthlyCredits: number | null;
  alertThresholds?: number[];
  webhookUrl?: string | null;
}

export interface BudgetView {
  monthlyCredits: number | null;
  alertThresholds: number[];
  webhookUrl: string | null;
  /** The current UTC month, YYYY-MM. */
  month: string;
  /** Credits charged this month, by the ledger. */
  spentThisMonth: number;
  /** The thresholds crossed this month, when, and at what spending. */
  crossed: Array<{ threshold: number; budget: number; spent: number; crossedAt: string }>;
}

export interface BudgetsServiceOptions {
  repo: BudgetsRepository;
  credits: Pick<CreditsService, 'spentBetween' | 'on' | 'enabled'>;
  webhooks: Pick<WebhookDeliveryService, 'deliver'>;
  config: WebhookUrlConfig;
  clock: Clock;
  logger: Logger;
}

/** The UTC month of `ms` and its bounds [from, to) in epoch ms. */
export function monthOf(ms: number): { month: string; from: number; to: number } {
  const d = new Date(ms);
  const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const to = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return { month: new Date(from).toISOString().slice(0, 7), from, to };
}

export class BudgetsService {
  /** Checks in progress per workspace: charges close together are checked one after another, not all at once. */
  private readonly checking = new Map<string, Promise<void>>();
  private readonly pendingChecks = new Set<Promise<void>>();

  constructor(private readonly options: BudgetsServiceOptions) {}

  /** Listens to the ledger's charges (hosted mode; local mode charges nothing). */
  start(): void {
    if (!this.options.credits.enabled) return;
    this.options.credits.on('charged', (workspaceId) => void this.afterCharge(workspaceId));
  }

  /** Resolves when every check started so far has finished (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.pendingChecks.size > 0) await Promise.allSettled([...this.pendingChecks]);
  }

  async view(workspaceId: string): Promise<BudgetView> {
    const { repo, credits, clock } = this.options;
    const { month, from, to } = monthOf(clock.now());
    const [budget, spentThisMonth, alerts] = await Promise.all([
      repo.get(workspaceId),
      credits.spentBetween(workspaceId, from, to),
      repo.alerts(workspaceId, month),
    ]);
    return {
      monthlyCredits: budget?.monthlyCredits ?? null,
      alertThresholds: budget?.alertThresholds ?? [],
      webhookUrl: budget?.webhookUrl ?? null,
      month,
      spentThisMonth,
      crossed: alerts.map((a) => ({
        threshold: a.threshold,
        budget: a.budget,
        spent: a.spent,
        crossedAt: new Date(a.createdAt).toISOString(),
      })),
    };
  }

  /**
   * Sets (or, with monthlyCredits null, removes) the budget, then checks it at once: a budget set
   * below this month's spending raises its crossed thresholds now, not at the next charge.
   */
  async update(workspaceId: string, body: BudgetUpdate): Promise<BudgetView> {
    const { repo, clock, config } = this.options;
    if (body.monthlyCredits === null) {
      await repo.remove(workspaceId);
      return this.view(workspaceId);
    }
    const thresholds = [...new Set(body.alertThresholds ?? DEFAULT_ALERT_THRESHOLDS)].sort((a, b) => a - b);
    // The rule a job's webhookUrl follows (400 webhook_url_not_allowed naming body.webhookUrl).
    if (body.webhookUrl) assertWebhookUrlAllowed(body.webhookUrl, config);
    await repo.put({
      workspaceId,
      monthlyCredits: body.monthlyCredits,
      alertThresholds: thresholds,
      webhookUrl: body.webhookUrl ?? null,
      updatedAt: clock.now(),
    });
    await this.check(workspaceId);
    return this.view(workspaceId);
  }

  private afterCharge(workspaceId: string): Promise<void> {
    // One check at a time per workspace in this process; the next waits for it (and sees its alerts).
    const previous = this.checking.get(workspaceId) ?? Promise.resolve();
    const next = previous.then(() => this.check(workspaceId));
    const tracked = next.catch((err: unknown) =>
      this.options.logger.warn({ err, workspaceId }, 'could not check the monthly budget after a charge'),
    );
    this.checking.set(workspaceId, tracked);
    this.pendingChecks.add(tracked);
    void tracked.finally(() => {
      this.pendingChecks.delete(tracked);
      if (this.checking.get(workspaceId) === tracked) this.checking.delete(workspaceId);
    });
    return tracked;
  }

  /** Raises every threshold this month's spending has reached and no process has raised yet. */
  async check(workspaceId: string): Promise<void> {
    const { repo, credits, clock, webhooks, logger } = this.options;
    const budget = await repo.get(workspaceId);
    if (!budget) return;
    const now = clock.now();
    const { month, from, to } = monthOf(now);
    const spent = await credits.spentBetween(workspaceId, from, to);
    for (const threshold of budget.alertThresholds) {
      // Integers only: spent / budget ≥ threshold / 100.
      if (spent * 100 < budget.monthlyCredits * threshold) break;
      const webhookId = budget.webhookUrl ? alertWebhookId(workspaceId, month, threshold) : null;
      const raised = await repo.insertAlert({
        workspaceId,
        month,
        threshold,
        budget: budget.monthlyCredits,
        spent,
        webhookId,
        createdAt: now,
      });
      if (!raised) continue;
      logger.info({ workspaceId, month, threshold, budget: budget.monthlyCredits, spent }, 'budget threshold crossed');
      if (budget.webhookUrl && webhookId)
        webhooks.deliver(
          workspaceId,
          budget.webhookUrl,
          { type: 'budget.threshold_crossed', data: { workspaceId, month, threshold, budget: budget.monthlyCredits, spent } },
          { webhookId },
        );
    }
  }
}

/** The alert's Standard Webhooks id: one per workspace, month and threshold, the same in every process. */
function alertWebhookId(workspaceId: string, month: string, threshold: number): string {
  return `msg_budget_${createHash('sha256').update(`${workspaceId}\0${month}\0${threshold}`).digest('hex').slice(0, 40)}`;
}
