// Loaded into every Node process of a test run by `npm run bench:test-cpu` (NODE_OPTIONS --require):
// appends the process's CPU time (all its threads), the CPU of the processes it started and waited for
// (FFmpeg, Chromium, qemu, service processes: /proc/self/stat), its entry point and when it started and
// ended to TEST_CPU_FILE as it exits. A process killed by a signal it does not handle writes nothing.
const { appendFileSync, readFileSync } = require('node:fs');

/** CPU seconds of this process's waited-for children and theirs (cutime + cstime; USER_HZ is 100). */
function childrenCpu() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

// test-cpu.mjs reads the whole run's CPU by the same rule.
module.exports = { childrenCpu };

const file = process.env.TEST_CPU_FILE;
if (file) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    // The runner (scripts/test-queue.mjs, or `node --test a b …`) has the files as its arguments: it counts as the runner.
    const runner = process.execArgv.includes('--test') || /test-queue\.mjs$/.test(process.argv[1] ?? '');
    const entry = runner ? '(test runner)' : (process.argv.slice(1).find((a) => !a.startsWith('-')) ?? '(eval)');
    try {
      // With when it started and ended (ms since the epoch): test-cpu.mjs shows which files ran last.
      const times = `${Math.round(performance.timeOrigin)}\t${Date.now()}`;
      appendFileSync(file, `${((user + system) / 1e6).toFixed(2)}\t${childrenCpu().toFixed(2)}\t${entry}\t${times}\n`);
    } catch {
      // the census is best effort; the process's own exit matters more
    }
  });
}
