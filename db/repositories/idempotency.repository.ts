// Idempotency keys per workspace. Claiming a key is one insert that only the first request wins.
import type { Database } from '../database.ts';

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type Claim =
  { state: 'claimed' } | { state: 'running'; fingerprint: string } | { state: 'done'; fingerprint: string; response: StoredResponse };

interface Row {
  fingerprint: string;
  status: 'running' | 'done';
  response_status: number | null;
  response_headers: string | null;
  response_body: Buffer | null;
  expires_at: number | string;
}

/** A key still `running` after this long belongs to a request whose process died. */
export const ABANDONED_AFTER_MS = 10 * 60_000;

export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  async claim(workspaceId: string, key: string, fingerprint: string, now: number, expiresAt: number): Promise<Claim> {
    return this.db.transaction(async (trx) => {
      // An expired key is free again, and so is one whose first request died with its process.
      await trx('idempotency_keys')
        .where({ workspace_id: workspaceId, key })
        .andWhere((q) =>
          q
            .where('expires_at', '<=', now)
            .orWhere((r) => r.where({ status: 'running' }).andWhere('created_at', '<', now - ABANDONED_AFTER_MS)),
        )
        .delete();
      const inserted = await trx('idempotency_keys')
        .insert({ workspace_id: workspaceId, key, fingerprint, status: 'running', created_at: now, expires_at: expiresAt })
        .onConflict(['workspace_id', 'key'])
        .ignore()
        .returning('key');
      if (inserted.length > 0) return { state: 'claimed' } as const;
      const row = (await trx('idempotency_keys').where({ workspace_id: workspaceId, key }).first()) as Row | undefined;
      if (!row) return { state: 'claimed' } as const;
      if (row.status === 'running') return { state: 'running', fingerprint: row.fingerprint } as const;
      return {
        state: 'done',
        fingerprint: row.fingerprint,
        response: {
          status: Number(row.response_status),
          headers: JSON.parse(row.response_headers ?? '{}'),
          body: Buffer.from(row.response_body ?? Buffer.alloc(0)),
        },
      } as const;
    });
  }

  async complete(workspaceId: string, key: string, response: StoredResponse): Promise<void> {
    await this.db('idempotency_keys')
      .where({ workspace_id: workspaceId, key, status: 'running' })
      .update({
        status: 'done',
        response_status: response.status,
        response_headers: JSON.stringify(response.headers),
        response_body: response.body,
      });
  }

  /** Frees a key whose request failed (5xx, abort), so a retry runs again. */
  async release(workspaceId: string, key: string): Promise<void> {
    await this.db('idempotency_keys').where({ workspace_id: workspaceId, key, status: 'running' }).delete();
  }

  async deleteExpired(now: number): Promise<number> {
    return this.db('idempotency_keys').where('expires_at', '<=', now).delete();
  }
}
