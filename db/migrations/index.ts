// Migrations in order. An explicit list (instead of a directory scan) works the same under tsx,
// in tests and in `npm run migrate`, and one list runs on both SQLite and Postgres.
import type { Knex } from 'knex';
import * as initial from './20261123_0001_initial.ts';
import * as blobs from './20261123_0002_blobs.ts';
import * as accounts from './20261123_0003_accounts.ts';
import * as presets from './20261123_0004_presets.ts';
import * as credits from './20261123_0005_credits.ts';
import * as rateLimits from './20261123_0006_rate_limits.ts';
import * as billing from './20261123_0007_billing.ts';
import * as idempotency from './20261123_0008_idempotency.ts';
import * as webhooks from './20261123_0009_webhooks.ts';
import * as jobs from './20261123_0010_jobs.ts';
import * as webhookOutbox from './20261123_0011_webhook_outbox.ts';
import * as jobsFinishedIndex from './20261123_0012_jobs_finished_index.ts';
import * as paymentRefunds from './20261123_0013_payment_refunds.ts';
import * as usageRenders from './20261125_0014_usage_renders.ts';
import * as jobResultKeys from './20261126_0015_job_result_keys.ts';
import * as urlSigningKeys from './20261127_0016_url_signing_keys.ts';
import * as jobMetadata from './20261127_0017_job_metadata.ts';
import * as assets from './20261129_0018_assets.ts';
import * as templates from './20261129_0019_templates.ts';
import * as signingBases from './20261129_0020_signing_bases.ts';
import * as usageGroupings from './20261129_0021_usage_groupings.ts';
import * as keyScopes from './20261129_0022_key_scopes.ts';
import * as jobKeySpending from './20261129_0023_job_key_spending.ts';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const migrations: ReadonlyArray<readonly [string, Migration]> = [
  ['20261123_0001_initial', initial],
  ['20261123_0002_blobs', blobs],
  ['20261123_0003_accounts', accounts],
  ['20261123_0004_presets', presets],
  ['20261123_0005_credits', credits],
  ['20261123_0006_rate_limits', rateLimits],
  ['20261123_0007_billing', billing],
  ['20261123_0008_idempotency', idempotency],
  ['20261123_0009_webhooks', webhooks],
  ['20261123_0010_jobs', jobs],
  ['20261123_0011_webhook_outbox', webhookOutbox],
  ['20261123_0012_jobs_finished_index', jobsFinishedIndex],
  ['20261123_0013_payment_refunds', paymentRefunds],
  ['20261125_0014_usage_renders', usageRenders],
  ['20261126_0015_job_result_keys', jobResultKeys],
  ['20261127_0016_url_signing_keys', urlSigningKeys],
  ['20261127_0017_job_metadata', jobMetadata],
  ['20261129_0018_assets', assets],
  ['20261129_0019_templates', templates],
  ['20261129_0020_signing_bases', signingBases],
  ['20261129_0021_usage_groupings', usageGroupings],
  ['20261129_0022_key_scopes', keyScopes],
  ['20261129_0023_job_key_spending', jobKeySpending],
];

export const migrationSource: Knex.MigrationSource<readonly [string, Migration]> = {
  getMigrations: async () => [...migrations],
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};
