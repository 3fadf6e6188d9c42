// The dependency container createApp(deps) receives and every handler reads (ctx.deps). Types
// only, in their own module, so src/http and handlers/ need not import src/app.ts.
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import type { Metrics } from '../lib/metrics.ts';
import type { DependencyStatus } from '../lib/dependency-status.ts';
import type { AuthService } from '../services/auth.service.ts';
import type { HealthService } from '../services/health.service.ts';
import type { BatchService } from '../services/batch.service.ts';
import type { QuoteService } from '../services/quote.service.ts';
import type { RenderService } from '../services/render.service.ts';
import type { KeysService } from '../services/keys.service.ts';
import type { UrlSigningKeysService } from '../services/url-signing-keys.service.ts';
import type { SigningBasesService } from '../services/signing-bases.service.ts';
import type { PresetsService } from '../services/presets.service.ts';
import type { RecipesService } from '../services/recipes.service.ts';
import type { TemplatesService } from '../services/templates.service.ts';
import type { AssetsService } from '../services/assets.service.ts';
import type { CreditsService } from '../services/credits.service.ts';
import type { BillingService } from '../services/billing.service.ts';
import type { JobsService } from '../jobs/jobs.service.ts';
import type { IdempotencyService } from './idempotency.ts';
import type { UsageService } from '../services/usage.service.ts';
import type { MeteredRenderService } from '../services/metered-render.service.ts';
import type { WorkspacesService } from '../services/workspaces.service.ts';
import type { RateLimiter } from '../services/rate-limit.service.ts';
import type { WebhookSecretsService } from '../services/webhook-secrets.service.ts';
import type { WebhookDeliveryService } from '../services/webhook-delivery.service.ts';
import type { BudgetsService } from '../services/budgets.service.ts';
import type { JobEventStreams } from '../jobs/job-event-streams.ts';
import type { GeneratorRegistry } from '../generators/registry.ts';

/** The webhooks entry of Services: the signing secrets and the outbound delivery. */
export interface Webhooks {
  secrets: WebhookSecretsService;
  delivery: WebhookDeliveryService;
}

export interface Services {
  auth: AuthService;
  keys: KeysService;
  /** URL signing keys: signed public recipe URLs. */
  urlSigningKeys: UrlSigningKeysService;
  /** Signed bases of URL signing keys: one signed URL for a whole site, completed with slot values. */
  signingBases: SigningBasesService;
  presets: PresetsService;
  /** The workspace's templates and their immutable versions. */
  templates: TemplatesService;
  /** Resolves recipes of generators and of the workspace's templates alike. */
  recipes: RecipesService;
  /** Uploaded images and fonts (templates draw them). */
  assets: AssetsService;
  credits: CreditsService;
  billing: BillingService;
  jobs: JobsService;
  /** Open `GET /v1/jobs/{id}/events` streams: one watcher per job, a cap per workspace. */
  jobEvents: JobEventStreams;
  idempotency: IdempotencyService;
  usage: UsageService;
  meteredRender: MeteredRenderService;
  health: HealthService;
  generators: GeneratorRegistry;
  workspaces: WorkspacesService;
  render: RenderService;
  batch: BatchService;
  /** POST /v1/quote: what a render, batch or job would charge and take, without running it. */
  quotes: QuoteService;
  /** Per-workspace and per-key request limits on authenticated operations. */
  rateLimiter: RateLimiter;
  /** Webhook signing secrets and outbound delivery (jobs call webhooks.delivery.deliver). */
  webhooks: Webhooks;
  /** Monthly budgets and their threshold alerts (GET/PUT /v1/workspace/budget). */
  budgets: BudgetsService;
}

export interface AppDeps {
  config: Config;
  logger: Logger;
  /** Requests are recorded here (the rest by compose); served by METRICS_PORT. */
  metrics: Metrics;
  /** Whether the database and object storage answer, as this process has seen them; an outage is logged here once. */
  dependencies: DependencyStatus;
  services: Services;
  /** The sign-in library's routes under /v1/auth (hosted mode). */
  signInHandler?: RequestHandler;
}
