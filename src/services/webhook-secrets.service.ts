// Per-workspace webhook signing secrets: `whsec_<base64 of 32 random bytes>`, created on first read,
// replaced on rotate. The secret is stored (HMAC signing needs it) and never logged.
import { randomBytes } from 'node:crypto';
import type { WebhookSecretRecord, WebhooksRepository } from '../../db/repositories/webhooks.repository.ts';
import type { Clock } from '../lib/clock.ts';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

export interface WebhookSecretView {
  secret: string;
  createdAt: string;
}

const toView = (r: WebhookSecretRecord): WebhookSecretView => ({ secret: r.secret, createdAt: new Date(r.createdAt).toISOString() });

export class WebhookSecretsService {
  constructor(
    private readonly repo: WebhooksRepository,
    private readonly clock: Clock,
  ) {}

  /** The workspace's secret, created on first use (concurrent first uses get the same one). */
  async current(workspaceId: string): Promise<WebhookSecretRecord> {
    const existing = await this.repo.findSecret(workspaceId);
    if (existing) return existing;
    return this.repo.insertSecretIfMissing({ workspaceId, secret: generateWebhookSecret(), createdAt: this.clock.now() });
  }

  async get(workspaceId: string): Promise<WebhookSecretView> {
    return toView(await this.current(workspaceId));
  }

  /** Replaces the secret; deliveries signed from now on use the new one only. */
  async rotate(workspaceId: string): Promise<WebhookSecretView> {
    return toView(await this.repo.replaceSecret({ workspaceId, secret: generateWebhookSecret(), createdAt: this.clock.now() }));
  }
}
