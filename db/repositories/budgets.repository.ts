// Monthly budgets and the alerts their thresholds raised (db/migrations/20261129_0021_usage_groupings.ts).
import type { Database } from '../database.ts';

export interface BudgetRecord {
  workspaceId: string;
  monthlyCredits: number;
  /** Percentages of monthlyCredits, ascending. */
  alertThresholds: number[];
  webhookUrl: string | null;
  updatedAt: number;
}

export interface BudgetAlertRecord {
  workspaceId: string;
  /** UTC calendar month, YYYY-MM. */
  month: string;
  threshold: number;
  /** The budget and the month's spending when the threshold was crossed. */
  budget: number;
  spent: number;
  webhookId: string | null;
  createdAt: number;
}

/** A unique or primary-key violation, on Postgres or SQLite. */
function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'));
}

export class BudgetsRepository {
  constructor(private readonly db: Database) {}

  async get(workspaceId: string): Promise<BudgetRecord | undefined> {
    const row = await this.db('workspace_budgets').where({ workspace_id: workspaceId }).first();
    if (!row) return undefined;
    return {
      workspaceId,
      monthlyCredits: Number(row.monthly_credits),
      alertThresholds: JSON.parse(String(row.alert_thresholds)) as number[],
      webhookUrl: row.webhook_url ?? null,
      updatedAt: Number(row.updated_at),
    };
  }

  async put(budget: BudgetRecord): Promise<void> {
    await this.db('workspace_budgets')
      .insert({
        workspace_id: budget.workspaceId,
        monthly_credits: budget.monthlyCredits,
        alert_thresholds: JSON.stringify(budget.alertThresholds),
        webhook_url: budget.webhookUrl,
        updated_at: budget.updatedAt,
      })
      .onConflict('workspace_id')
      .merge(['monthly_credits', 'alert_thresholds', 'webhook_url', 'updated_at']);
  }

  async remove(workspaceId: string): Promise<void> {
    await this.db('workspace_budgets').where({ workspace_id: workspaceId }).delete();
  }

  /**
   * Records that a threshold was crossed this month; false when it was already (by this or another
   * process): the primary key (workspace, month, threshold) lets exactly one insert land.
   */
  async insertAlert(alert: BudgetAlertRecord): Promise<boolean> {
    try {
      await this.db('budget_alerts').insert({
        workspace_id: alert.workspaceId,
        month: alert.month,
        threshold: alert.threshold,
        budget: alert.budget,
        spent: alert.spent,
        webhook_id: alert.webhookId,
        created_at: alert.createdAt,
      });
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  async alerts(workspaceId: string, month: string): Promise<BudgetAlertRecord[]> {
    const rows = await this.db('budget_alerts').where({ workspace_id: workspaceId, month }).orderBy('threshold');
    return rows.map((r: Record<string, unknown>) => ({
      workspaceId,
      month,
      threshold: Number(r.threshold),
      budget: Number(r.budget),
      spent: Number(r.spent),
      webhookId: (r.webhook_id as string | null) ?? null,
      createdAt: Number(r.created_at),
    }));
  }
}
