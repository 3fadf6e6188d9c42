// Preloaded (`--import`) into the test processes of scripts/run-tests.mjs: node:test tells which test
// a registration or an uncaught error belongs to through an async hook with `init` and `destroy`
// (internal/test_runner/harness: Node 20, 22 and 24 alike), so every promise a test process makes,
// its in-process apps' included, costs a JavaScript call and a destroy-tracking weak handle: 2 million
// awaits took 3.0 s of CPU inside a test and 0.16 s outside one. Here the harness gets the same answer
// from an AsyncLocalStorage set as each test, suite or hook runs its function: the harness's own
// `init` records the test, and `executionAsyncId()`, as the harness sees it, names the test whose
// scope the caller is in (its async continuations included), else the real current id (the root).
// Only the harness's copies change: the public async_hooks functions are the real ones again once
// node:test has loaded. Nothing is done in a worker thread, in a process that is not a test file's
// (NODE_TEST_CONTEXT unset), or when the harness does not ask for its hook as expected (another
// Node); TEST_ASYNC_CONTEXT=hooks keeps node:test's own hook.
import asyncHooks, { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread && process.env.NODE_TEST_CONTEXT && process.env.TEST_ASYNC_CONTEXT !== 'hooks') install();

function install() {
  const { createHook, executionAsyncId } = asyncHooks;
  const scope = new AsyncLocalStorage();
  /** The harness's `init`: given a test (or suite, or hook) as the resource, it records it under its id. */
  let record;
  asyncHooks.createHook = function harnessHook(callbacks) {
    const fromHarness = new Error().stack?.includes('internal/test_runner/harness');
    if (!fromHarness || typeof callbacks?.init !== 'function' || typeof callbacks.destroy !== 'function') return createHook(callbacks);
    record = callbacks.init;
    // For test/unit/test-context.test.ts: the harness's scopes are this module's.
    globalThis[Symbol.for('render-service.test-scopes')] = true;
    const hook = { enable: () => hook, disable: () => hook };
    return hook;
  };
  asyncHooks.executionAsyncId = () => scope.getStore() ?? executionAsyncId();
  try {
    createRequire(import.meta.url)('node:test');
  } finally {
    asyncHooks.createHook = createHook;
    asyncHooks.executionAsyncId = executionAsyncId;
  }

  // A test, suite or hook runs its function (and a suite registers its tests) through runInAsyncScope:
  // within it, and in everything it starts, the harness's lookups name it.
  const run = AsyncResource.prototype.runInAsyncScope;
  AsyncResource.prototype.runInAsyncScope = function (fn, thisArg, ...args) {
    if (record === undefined || !isTest(this)) return run.call(this, fn, thisArg, ...args);
    const id = this.asyncId();
    record(id, 'Test', 0, this);
    // Entered inside the resource's scope: a store set outside it would not be the one its
    // continuations see (the resource's own is, or on Node 24 the context it was made in).
    return run.call(this, (...a) => scope.run(id, () => Reflect.apply(fn, thisArg, a)), undefined, ...args);
  };
}

/** node:test's Test (Suite and TestHook extend it) is internal: known by its methods. */
function isTest(resource) {
  return typeof resource.createSubtest === 'function' && typeof resource.runHook === 'function' && Array.isArray(resource.subtests);
}
