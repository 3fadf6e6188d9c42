// scripts/test-scratch.mjs: a test run keeps its temporary files in a directory of its own in /dev/shm
// when that is a tmpfs with room, clears what killed runs left there, and otherwise (TEST_TMPFS=0, not a
// tmpfs) leaves TMPDIR alone.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, statfsSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { makeScratchDir, SCRATCH_MIN_BYTES, SCRATCH_PREFIX, TMPFS_MAGIC } from '../../scripts/test-scratch.mjs';

const shmIsTmpfs = (() => {
  try {
    const stats = statfsSync('/dev/shm');
    return stats.type === TMPFS_MAGIC && stats.bavail * stats.bsize >= SCRATCH_MIN_BYTES;
  } catch {
    return false;
  }
})();

test('TEST_TMPFS=0, or a place that is not a tmpfs: TMPDIR stays as it is', () => {
  assert.equal(makeScratchDir({ env: { TEST_TMPFS: '0' } }), undefined);
  assert.equal(makeScratchDir({ shm: '/proc', env: {} }), undefined);
  assert.equal(makeScratchDir({ shm: '/no/such/dir', env: {} }), undefined);
});

test(
  'on a tmpfs with room: a world-writable directory named by the run, after the directories of ended runs are gone',
  { skip: shmIsTmpfs ? false : '/dev/shm is not a tmpfs with room here' },
  () => {
    const shm = mkdtempSync('/dev/shm/render-service-scratch-test-');
    after(() => rmSync(shm, { recursive: true, force: true }));
    const ended = path.join(shm, `${SCRATCH_PREFIX}111-abc`);
    const running = path.join(shm, `${SCRATCH_PREFIX}222-def`);
    const other = path.join(shm, 'something-else-111-');
    for (const dir of [ended, running, other]) mkdirSync(dir);
    const dir = makeScratchDir({ shm, env: {}, isRunning: (pid) => pid === 222 });
    assert.ok(dir);
    assert.equal(path.dirname(dir), shm);
    assert.ok(path.basename(dir).startsWith(`${SCRATCH_PREFIX}${process.pid}-`));
    assert.equal(statSync(dir).mode & 0o7777, 0o1777);
    assert.deepEqual([existsSync(ended), existsSync(running), existsSync(other)], [false, true, true]);
  },
);
