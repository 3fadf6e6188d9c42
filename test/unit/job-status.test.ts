// "Is this job finished" has one rule (isFinishedStatus, beside JobStatus): the contract documents
// the same statuses as final, and the job's view carries the rule as `finished` for clients (the web
// app among them) instead of a copy of the list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FINISHED_JOB_STATUSES, isFinishedStatus, type JobRecord, type JobStatus } from '../../db/repositories/jobs.repository.ts';
import { jobView } from '../../src/jobs/jobs.service.ts';
import { openApiDocument } from '../../src/lib/openapi-document.ts';

const schema = (openApiDocument().components as { schemas: Record<string, { enum: JobStatus[]; description: string }> }).schemas.JobStatus;

test('completed, failed and cancelled are finished; queued and running are not', () => {
  assert.deepEqual(
    schema.enum.filter((status) => isFinishedStatus(status)),
    ['completed', 'failed', 'cancelled'],
  );
  assert.deepEqual([...FINISHED_JOB_STATUSES].sort(), ['cancelled', 'completed', 'failed']);
});

test('the contract names the finished statuses the rule has', () => {
  const sentence = /A job in (.+?) has finished/s.exec(schema.description);
  assert.ok(sentence, 'JobStatus says which statuses are final');
  const named = [...sentence[1].matchAll(/`([a-z]+)`/g)].map((m) => m[1]);
  assert.deepEqual(named.sort(), [...FINISHED_JOB_STATUSES].sort());
});

test("a job's view says whether it finished, by the rule", () => {
  const job = { id: 'job_a', slug: 'plasma', progress: 0, attempts: 1, createdAt: 0, updatedAt: 0, metadata: {} } as unknown as JobRecord;
  for (const status of schema.enum) {
    const view = jobView({ ...job, status, cancelRequested: true }, 0);
    assert.equal(view.finished, isFinishedStatus(status), status);
    // A cancel request shows at once on a job that has not finished yet; a finished job shows its status.
    assert.equal(view.cancelled, status === 'cancelled' || !isFinishedStatus(status), status);
  }
});
