// The live preview's loop (web/js/preview-loop.js, plain JS run here in Node), shared by the
// playground and the template editor: a quick picture, then the sharp one; a newer request aborts
// the older one; an older answer is never shown over a newer one; an error is the newest request's alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPreviewLoop } from '../../web/js/preview-loop.js';

/** A render whose answers the test hands out by hand, in any order; an abort rejects as fetch does. */
function renders() {
  const pending = new Map<string, { resolve: (out: string) => void; reject: (err: Error) => void; signal: AbortSignal }>();
  const render = (request: string, signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      pending.set(request, { resolve, reject, signal });
      signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
    });
  return {
    render,
    answer: (request: string) => pending.get(request)!.resolve(`picture of ${request}`),
    fail: (request: string, message: string) => pending.get(request)!.reject(new Error(message)),
    aborted: (request: string) => pending.get(request)!.signal.aborted,
  };
}

function loopWith(r: ReturnType<typeof renders>) {
  const shown: string[] = [];
  const errors: string[] = [];
  const loop = createPreviewLoop<string, string>({
    render: r.render,
    onPicture: (out, _request, { quick }) => shown.push(`${quick ? 'quick' : 'sharp'}: ${out}`),
    onError: (err, request) => errors.push(`${request}: ${err.message}`),
  });
  return { loop, shown, errors };
}

test('the quick picture first, then the sharp one; a quick one arriving late is not shown over the sharp one', async () => {
  const r = renders();
  const { loop, shown } = loopWith(r);
  const done = loop.request('a', 'a-quick');
  r.answer('a-quick');
  await Promise.resolve();
  r.answer('a');
  assert.equal(await done, true);
  assert.deepEqual(shown, ['quick: picture of a-quick', 'sharp: picture of a']);

  const late = loop.request('b', 'b-quick');
  r.answer('b');
  assert.equal(await late, true);
  r.answer('b-quick');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(shown.slice(2), ['sharp: picture of b']);
  assert.equal(loop.requests, 2);
});

test('a newer request aborts the one before; an older answer is never shown over a newer one', async () => {
  const r = renders();
  const { loop, shown, errors } = loopWith(r);
  const first = loop.request('a', 'a-quick');
  const second = loop.request('b');
  assert.ok(r.aborted('a') && r.aborted('a-quick'), 'the superseded render (quick and sharp) is aborted');
  assert.equal(r.aborted('b'), false);
  assert.equal(await first, false);
  r.answer('b');
  assert.equal(await second, true);
  assert.deepEqual(shown, ['sharp: picture of b']);
  assert.deepEqual(errors, [], 'an abort is no error');
});

test('an answer that a render ignoring the abort still gives is dropped', async () => {
  // A render that cannot be aborted (a cached answer already on its way) resolves anyway.
  const answers: Record<string, (out: string) => void> = {};
  const shown: string[] = [];
  const loop = createPreviewLoop<string, string>({
    render: (request) => new Promise((resolve) => (answers[request] = resolve)),
    onPicture: (out) => shown.push(out),
    onError: () => assert.fail('no error'),
  });
  const first = loop.request('a');
  const second = loop.request('b');
  answers.b('b');
  answers.a('a');
  assert.deepEqual([await first, await second], [false, true]);
  assert.deepEqual(shown, ['b']);
});

test("an error is the newest request's only, and no quick picture follows it", async () => {
  const r = renders();
  const { loop, shown, errors } = loopWith(r);
  const done = loop.request('a', 'a-quick');
  r.fail('a', 'refused');
  assert.equal(await done, true);
  r.answer('a-quick');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(errors, ['a: refused']);
  assert.deepEqual(shown, []);

  const old = loop.request('b');
  const next = loop.request('c');
  r.fail('b', 'late refusal');
  assert.equal(await old, false);
  r.answer('c');
  assert.equal(await next, true);
  assert.deepEqual(errors, ['a: refused']);
});

test('stop() drops the request in flight: aborted, never shown', async () => {
  const r = renders();
  const { loop, shown } = loopWith(r);
  const done = loop.request('a');
  loop.stop();
  assert.ok(r.aborted('a'));
  assert.equal(await done, false);
  assert.deepEqual(shown, []);
});
