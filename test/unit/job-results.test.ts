// Where a ready result downloads (JobResults.link): a presigned URL that never outlives the result,
// the API path from a store that cannot presign, and the API path — never an error — when
// presigning fails (credentials the SDK could not find).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BlobStore } from '../../src/blob/blob-store.ts';
import type { JobRecord, JobsRepository } from '../../db/repositories/jobs.repository.ts';
import { JobResults } from '../../src/jobs/job-results.ts';
import { createLogger } from '../../src/lib/logger.ts';

const NOW = Date.UTC(2026, 10, 26);
const clock = { now: () => NOW };
const job = {
  id: 'job_abc',
  slug: 'plasma',
  recipeHash: 'f'.repeat(64),
  format: 'gif',
  contentType: 'image/gif',
  resultKey: 'job_69b7.gif',
};
const store = (presignGet?: BlobStore['presignGet']): BlobStore => ({
  get: async () => undefined,
  put: async () => {},
  delete: async () => {},
  ...(presignGet ? { presignGet } : {}),
});
const results = (s: BlobStore) =>
  new JobResults({ store: s, repo: {} as JobsRepository, clock, logger: createLogger('silent'), urlTtlSeconds: 900 });

test('a presigned link lasts the TTL, but never past the result’s own expiry', async () => {
  const seen: unknown[] = [];
  const presigning = store(async (key, options) => {
    seen.push({ key, ...options });
    return `https://bucket.example/${key}?sig`;
  });
  const far = await results(presigning).link({ ...job, expiresAt: NOW + 7 * 86_400_000 } as JobRecord);
  assert.deepEqual(far, { url: 'https://bucket.example/job_69b7.gif?sig', expiresAt: NOW + 900_000 });
  assert.deepEqual(seen[0], {
    key: 'job_69b7.gif',
    expiresInSeconds: 900,
    contentType: 'image/gif',
    filename: `plasma-${'f'.repeat(12)}.gif`,
    now: new Date(NOW),
  });
  const soon = await results(presigning).link({ ...job, expiresAt: NOW + 60_000 } as JobRecord);
  assert.equal(soon.expiresAt, NOW + 60_000);
});

test('the API path from a store that cannot presign, or when presigning fails', async () => {
  const record = { ...job, expiresAt: NOW + 1000 } as JobRecord;
  assert.deepEqual(await results(store()).link(record), { url: '/v1/jobs/job_abc/result' });
  const failing = store(async () => {
    throw new Error('Could not load credentials from any providers');
  });
  assert.deepEqual(await results(failing).link(record), { url: '/v1/jobs/job_abc/result' });
});
