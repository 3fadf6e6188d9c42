// Loaded into every Node process of a test run by `npm run bench:test-cpu` (NODE_OPTIONS --require):
// appends the process's CPU time (all its threads) and its entry point to TEST_CPU_FILE as it exits.
// A process killed by a signal it does not handle writes nothing.
const { appendFileSync } = require('node:fs');

const file = process.env.TEST_CPU_FILE;
if (file) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    // The runner of `node --test a b …` has the files as its arguments: it counts as the runner.
    const runner = process.execArgv.includes('--test');
    const entry = runner ? '(node --test runner)' : (process.argv.slice(1).find((a) => !a.startsWith('-')) ?? '(eval)');
    try {
      appendFileSync(file, `${((user + system) / 1e6).toFixed(2)}\t${entry}\n`);
    } catch {
      // the census is best effort; the process's own exit matters more
    }
  });
}
