// Webhook signing secrets (one per workspace), the outbox of messages to deliver, and the log of
// delivery attempts.
import type { Database } from '../database.ts';
import { nullableNumber } from './columns.ts';

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

const toSecret = (r: SecretRow): WebhookSecretRecord => ({
  workspaceId: r.workspace_id,
  secret: r.secret,
  createdAt: Number(r.created_at),
});
const toDelivery = (r: DeliveryRow): WebhookDeliveryRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  webhookId: r.webhook_id,
  url: r.url,
  eventType: r.event_type,
  attempt: Number(r.attempt),
  statusCode: nullableNumber(r.status_code),
  error: r.error,
  durationMs: Number(r.duration_ms),
  createdAt: Number(r.created_at),
});

/** A message in the outbox. */
export interface OutboxMessage {
  webhookId: string;
  workspaceId: string;
  url: string;
  eventType: string;
  body: string;
  attempts: number;
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: number;
}

interface OutboxRow {
  webhook_id: string;
  workspace_id: string;
  url: string;
  event_type: string;
  body: string;
  attempts: number | string;
  status: OutboxMessage['status'];
  next_attempt_at: number | string;
}

const toOutbox = (r: OutboxRow): OutboxMessage => ({
  webhookId: r.webhook_id,
  workspaceId: r.workspace_id,
  url: r.url,
  eventType: r.event_type,
  body: r.body,
  attempts: Number(r.attempts),
  status: r.status,
  nextAttemptAt: Number(r.next_attempt_at),
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

  /**
   * A new message, held by `owner` (the process about to send it) until `lockedUntil`. False when a
   * message with this id is already there (another process queued it first): it is theirs to send.
   */
  async insertOutbox(
    message: Omit<OutboxMessage, 'attempts' | 'status'>,
    owner: string,
    lockedUntil: number,
    now: number,
  ): Promise<boolean> {
    const inserted = await this.db('webhook_outbox')
      .insert({
        webhook_id: message.webhookId,
        workspace_id: message.workspaceId,
        url: message.url,
        event_type: message.eventType,
        body: message.body,
        attempts: 0,
        status: 'pending',
        next_attempt_at: message.nextAttemptAt,
        locked_by: owner,
        locked_until: lockedUntil,
        created_at: now,
        updated_at: now,
      })
      .onConflict('webhook_id')
      .ignore()
      .returning('webhook_id');
    return inserted.length === 1;
  }

  /**
   * Takes up to `limit` pending messages that are due and held by no live process (never locked,
   * released at shutdown, or locked by a process that died). Each claim is a conditional update,
   * so two processes never take the same message.
   */
  async claimDueOutbox(owner: string, now: number, lockedUntil: number, limit: number): Promise<OutboxMessage[]> {
    const free = (q: ReturnType<Database>) =>
      q
        .where({ status: 'pending' })
        .andWhere('next_attempt_at', '<=', now)
        .andWhere((w) => w.whereNull('locked_until').orWhere('locked_until', '<', now));
    const candidates = (await free(this.db('webhook_outbox')).orderBy('next_attempt_at', 'asc').limit(limit)) as OutboxRow[];
    const claimed: OutboxMessage[] = [];
    for (const row of candidates) {
      const moved = await free(this.db('webhook_outbox').where({ webhook_id: row.webhook_id })).update({
        locked_by: owner,
        locked_until: lockedUntil,
        updated_at: now,
      });
      if (moved === 1) claimed.push(toOutbox(row));
    }
    return claimed;
  }

  /** After an attempt by its holder: delivered, failed for good, or pending until `nextAttemptAt` (still held until `lockedUntil`). */
  async recordOutboxAttempt(
    webhookId: string,
    owner: string,
    state: { attempts: number; status: OutboxMessage['status']; nextAttemptAt: number; lockedUntil: number | null },
    now: number,
  ): Promise<void> {
    await this.db('webhook_outbox')
      .where({ webhook_id: webhookId, locked_by: owner })
      .update({
        attempts: state.attempts,
        status: state.status,
        next_attempt_at: state.nextAttemptAt,
        locked_until: state.status === 'pending' ? state.lockedUntil : null,
        ...(state.status === 'pending' && state.lockedUntil === null ? { locked_by: null } : {}),
        updated_at: now,
      });
  }

  /** The holder lets go (it is shutting down): any process takes the message when it is due. */
  async releaseOutbox(webhookId: string, owner: string, now: number): Promise<void> {
    await this.db('webhook_outbox')
      .where({ webhook_id: webhookId, locked_by: owner, status: 'pending' })
      .update({ locked_by: null, locked_until: null, updated_at: now });
  }

  async findOutbox(webhookId: string): Promise<(OutboxMessage & { lockedBy: string | null }) | undefined> {
    const row = (await this.db('webhook_outbox').where({ webhook_id: webhookId }).first()) as
      (OutboxRow & { locked_by: string | null }) | undefined;
    return row ? { ...toOutbox(row), lockedBy: row.locked_by } : undefined;
  }

  /** Every attempt of one webhook message, in order. */
  async listDeliveries(webhookId: string): Promise<WebhookDeliveryRecord[]> {
    const rows = await this.db<DeliveryRow>('webhook_deliveries').where({ webhook_id: webhookId }).orderBy('attempt', 'asc');
    return rows.map(toDelivery);
  }
}
