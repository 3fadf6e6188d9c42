// Webhook signing secrets (one per workspace) and the log of delivery attempts.
import type { Database } from '../database.ts';

export interface WebhookSecretRecord {
  workspaceId: string;
  secret: string;
  createdAt: number;
}

export interface WebhookDeliveryRecord {
  id: string;
  workspaceId: string;
  webhookId: string;
  url: string;
  eventType: string;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  createdAt: number;
}

interface SecretRow {
  workspace_id: string;
  secret: string;
  created_at: number | string;
}

interface DeliveryRow {
  id: string;
  workspace_id: string;
  webhook_id: string;
  url: string;
  event_type: string;
  attempt: number | string;
  status_code: number | string | null;
  error: string | null;
  duration_ms: number | string;
  created_at: number | string;
}

const toSecret = (r: SecretRow): WebhookSecretRecord => ({ workspaceId: r.workspace_id, secret: r.secret, createdAt: Number(r.created_at) });
const toDelivery = (r: DeliveryRow): WebhookDeliveryRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  webhookId: r.webhook_id,
  url: r.url,
  eventType: r.event_type,
  attempt: Number(r.attempt),
  statusCode: r.status_code === null ? null : Number(r.status_code),
  error: r.error,
  durationMs: Number(r.duration_ms),
  createdAt: Number(r.created_at),
});

export class WebhooksRepository {
  constructor(private readonly db: Database) {}

  async findSecret(workspaceId: string): Promise<WebhookSecretRecord | undefined> {
    const row = await this.db<SecretRow>('webhook_secrets').where({ workspace_id: workspaceId }).first();
    return row ? toSecret(row) : undefined;
  }

  /** Stores the secret unless the workspace has one already (concurrent first reads agree); returns the stored one. */
  async insertSecretIfMissing(record: WebhookSecretRecord): Promise<WebhookSecretRecord> {
    await this.db('webhook_secrets')
      .insert({ workspace_id: record.workspaceId, secret: record.secret, created_at: record.createdAt })
      .onConflict('workspace_id')
      .ignore();
    const stored = await this.findSecret(record.workspaceId);
    if (!stored) throw new Error(`webhook secret of ${record.workspaceId} vanished after insert`);
    return stored;
  }

  /** Replaces the workspace's secret (or creates it). */
  async replaceSecret(record: WebhookSecretRecord): Promise<WebhookSecretRecord> {
    await this.db('webhook_secrets')
      .insert({ workspace_id: record.workspaceId, secret: record.secret, created_at: record.createdAt })
      .onConflict('workspace_id')
      .merge(['secret', 'created_at']);
    return record;
  }

  async insertDelivery(record: WebhookDeliveryRecord): Promise<void> {
    await this.db('webhook_deliveries').insert({
      id: record.id,
      workspace_id: record.workspaceId,
      webhook_id: record.webhookId,
      url: record.url,
      event_type: record.eventType,
      attempt: record.attempt,
      status_code: record.statusCode,
      error: record.error === null ? null : record.error.slice(0, 500),
      duration_ms: record.durationMs,
      created_at: record.createdAt,
    });
  }

  /** Every attempt of one webhook message, in order. */
  async listDeliveries(webhookId: string): Promise<WebhookDeliveryRecord[]> {
    const rows = await this.db<DeliveryRow>('webhook_deliveries').where({ webhook_id: webhookId }).orderBy('attempt', 'asc');
    return rows.map(toDelivery);
  }
}
