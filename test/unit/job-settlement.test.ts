// How an export job's credit hold is settled (MeteredRenderService.settleJob, the rule synchronous
// renders are charged by): a job that rendered commits its hold, one answered from the cache
// releases it unless it was retried, one that ended without a result releases it. A job that does not
// pay gives back what it counted against its API key's month; one that pays keeps it counted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ResolvedRecipe } from '../../src/engine/recipe.ts';
import { type MeteredCredits, MeteredRenderService } from '../../src/services/metered-render.service.ts';

const resolved = { recipe: { format: 'png', size: { width: 640, height: 480, pixelRatio: 1 } }, frames: 1 } as unknown as ResolvedRecipe;

function metered(enabled = true) {
  const moves: string[] = [];
  const credits = {
    enabled,
    commitId: async (id: string | null) => void (id && moves.push(`commit ${id}`)),
    releaseId: async (id: string | null) => void (id && moves.push(`release ${id}`)),
    reservationAmount: async () => 7,
  } as unknown as MeteredCredits;
  const jobKeySpending = { returnKeySpending: async (jobId: string) => void moves.push(`give back ${jobId}`) };
  const service = new MeteredRenderService({ render: {} as never, credits, usage: { record: async () => {} }, jobKeySpending });
  return { service, moves };
}

test('a job that rendered commits its hold and is charged its amount', async () => {
  const { service, moves } = metered();
  assert.equal(await service.settleJob({ id: 'job_1', reservationId: 'res_1', attempts: 1 }, { resolved, cache: 'MISS' }), 7);
  assert.deepEqual(moves, ['commit res_1']);
});

test('a job whose result came from the cache releases its hold; a retried one pays regardless', async () => {
  const first = metered();
  assert.equal(await first.service.settleJob({ id: 'job_1', reservationId: 'res_1', attempts: 1 }, { resolved, cache: 'HIT' }), 0);
  assert.deepEqual(first.moves, ['release res_1', 'give back job_1']);
  const retried = metered();
  assert.equal(await retried.service.settleJob({ id: 'job_1', reservationId: 'res_2', attempts: 2 }, { resolved, cache: 'HIT' }), 7);
  assert.deepEqual(retried.moves, ['commit res_2']);
});

test('a job that ended without a result releases its hold; local mode and no hold charge nothing', async () => {
  const ended = metered();
  assert.equal(await ended.service.settleJob({ id: 'job_1', reservationId: 'res_1', attempts: 3 }), 0);
  assert.deepEqual(ended.moves, ['release res_1', 'give back job_1']);
  assert.equal(
    await metered(false).service.settleJob({ id: 'job_1', reservationId: 'res_1', attempts: 1 }, { resolved, cache: 'MISS' }),
    0,
  );
  assert.equal(await metered().service.settleJob({ id: 'job_1', reservationId: null, attempts: 1 }, { resolved, cache: 'MISS' }), 0);
});
