#!/usr/bin/env node
// Prints the operation × status table from the statuses the tests observed (test/support/contract.ts
// writes one file per test process under test-results/status-coverage/) against those openapi.yaml
// declares. Fails when a test saw a status the operation does not declare. A declared status (other
// than 500, which no client should be able to trigger) that no test produced fails too when the
// observations come from a whole integration tier (scripts/run-tests.mjs marks such a run in
// run.meta.json): a status the contract promises and nothing produces is as much a lie as one it
// hides. After a partial run (a filter, another tier) those are only listed.
//   node scripts/status-coverage.mjs [--strict | --no-strict] [dir]
// STATUS_COVERAGE_STRICT=1 or 0 does the same as --strict or --no-strict.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('-')) ?? path.join(root, 'test-results/status-coverage');
/** Written by scripts/run-tests.mjs: which tiers ran, and whether any file filter narrowed them. */
const RUN_META = 'run.meta.json';
const meta = existsSync(path.join(dir, RUN_META)) ? JSON.parse(readFileSync(path.join(dir, RUN_META), 'utf8')) : {};
const wholeIntegrationTier = meta.wholeIntegrationTier === true;
const strict =
  args.includes('--no-strict') || process.env.STATUS_COVERAGE_STRICT === '0'
    ? false
    : args.includes('--strict') || process.env.STATUS_COVERAGE_STRICT === '1' || wholeIntegrationTier;
const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];

const doc = YAML.parse(readFileSync(path.join(root, 'openapi.yaml'), 'utf8'));
const declared = new Map();
for (const item of Object.values(doc.paths)) {
  for (const method of METHODS) {
    const op = item[method];
    if (op) declared.set(op.operationId, new Set(Object.keys(op.responses).filter((s) => s !== 'default')));
  }
}

const observed = new Map([...declared.keys()].map((op) => [op, new Set()]));
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json') && f !== RUN_META) : [];
if (files.length === 0) {
  console.error(`status coverage: no observations under ${path.relative(root, dir)} (run the integration and fuzz tiers first)`);
  process.exit(1);
}
for (const file of files) {
  for (const [op, statuses] of Object.entries(JSON.parse(readFileSync(path.join(dir, file), 'utf8')))) {
    if (!observed.has(op)) observed.set(op, new Set());
    for (const s of statuses) observed.get(op).add(s);
  }
}

const allStatuses = [...new Set([...declared.values(), ...observed.values()].flatMap((s) => [...s]))].sort();
const undeclared = [];
const unproduced = [];
// ✓ declared and observed, · declared and not observed (500: expected), ! declared (≠500) and never observed, ✗ observed but undeclared.
const rows = [...observed.keys()].sort().map((op) => {
  const d = declared.get(op) ?? new Set();
  const o = observed.get(op);
  const cells = allStatuses.map((s) => {
    if (d.has(s) && o.has(s)) return '✓';
    if (o.has(s)) {
      undeclared.push(`${op} ${s}`);
      return '✗';
    }
    if (!d.has(s)) return '';
    if (s === '500') return '·';
    unproduced.push(`${op} ${s}`);
    return '!';
  });
  return [op, ...cells];
});
const header = ['operation', ...allStatuses];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(
  `\nStatus coverage (${files.length} test processes): ✓ declared and produced by a test, ! declared but never produced, ✗ produced but not declared, · 500 declared`,
);
console.log(line(header));
for (const r of rows) console.log(line(r));

let failed = false;
if (undeclared.length) {
  failed = true;
  console.error(`\nFAIL: ${undeclared.length} observed statuses are not declared in openapi.yaml:\n  ${undeclared.join('\n  ')}`);
}
if (unproduced.length) {
  if (strict) failed = true;
  console[strict ? 'error' : 'warn'](
    `\n${strict ? 'FAIL' : 'WARNING'}: ${unproduced.length} declared statuses (other than 500) no test produced${strict ? '' : wholeIntegrationTier ? ' (listed only: STATUS_COVERAGE_STRICT=0 or --no-strict)' : ' (listed only: these observations are not from a whole integration tier)'}:\n  ${unproduced.join('\n  ')}\n` +
      'Make a test produce each one a client can meet, or remove the declaration from openapi.yaml.',
  );
}
if (!failed)
  console.log(
    `\nstatus coverage: every observed status is declared${unproduced.length ? '' : ', and every declared status (but 500) was produced'}.`,
  );
process.exit(failed ? 1 : 0);
