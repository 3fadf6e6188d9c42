#!/usr/bin/env node
// Prints the operation × status table from the statuses the tests observed (test/support/contract.ts
// writes one file per test process under test-results/status-coverage/) against those openapi.yaml
// declares. Fails when a test saw a status the operation does not declare, or a response header that
// the operation's response for that status does not declare (EXEMPT_HEADERS aside). A declared status (other
// than 500, which no client should be able to trigger) that no test produced fails too when the
// observations come from a whole integration tier (scripts/run-tests.mjs marks such a run in
// run.meta.json): a status the contract promises and nothing produces is as much a lie as one it
// hides. After a partial run (a filter, another tier) those are only listed.
//   node scripts/status-coverage.mjs [--strict | --no-strict] [--openapi=<file>] [dir]
// STATUS_COVERAGE_STRICT=1 or 0 does the same as --strict or --no-strict; --openapi checks against
// another document than openapi.yaml (the script's own test uses a fixture).
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
/**
 * Response headers no operation declares, written once: every other header a response carries must
 * be declared on that operation's response for that status (a generated client sees only those).
 */
const EXEMPT_HEADERS = new Set([
  // OpenAPI 3.1 (Response Object, `headers`): a header named Content-Type is ignored there; the
  // media types are the keys of `content`, which test/support/contract.ts checks.
  'content-type',
  // Message framing (RFC 9112 §6): how node's HTTP server delimits this body on this connection.
  'content-length',
  'transfer-encoding',
  // Hop-by-hop connection management (RFC 9110 §7.6.1), written by node's HTTP server.
  'connection',
  'keep-alive',
  // Added by node's HTTP server to every message (RFC 9110 §6.6.1 requires it of an origin with a clock).
  'date',
]);

const openapiArg = args.find((a) => a.startsWith('--openapi='));
const openapiFile = openapiArg ? path.resolve(openapiArg.slice('--openapi='.length)) : path.join(root, 'openapi.yaml');
const doc = YAML.parse(readFileSync(openapiFile, 'utf8'));

/** Follows a local `$ref` (`#/components/…`) to the object it names, through chains of them. */
function resolve(node) {
  const seen = new Set();
  while (node && typeof node.$ref === 'string') {
    if (seen.has(node.$ref) || !node.$ref.startsWith('#/')) throw new Error(`cannot resolve $ref ${node.$ref}`);
    seen.add(node.$ref);
    node = node.$ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((at, part) => at?.[part], doc);
  }
  return node;
}

/** operationId → status → the lowercase names of the headers its response declares. */
const declared = new Map();
for (const item of Object.values(doc.paths)) {
  for (const method of METHODS) {
    const op = item[method];
    if (!op) continue;
    const statuses = new Map();
    for (const [status, response] of Object.entries(op.responses)) {
      if (status === 'default') continue;
      statuses.set(status, new Set(Object.keys(resolve(response)?.headers ?? {}).map((name) => name.toLowerCase())));
    }
    declared.set(op.operationId, statuses);
  }
}

/** operationId → status → the lowercase names of the headers received with it. */
const observed = new Map([...declared.keys()].map((op) => [op, new Map()]));
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json') && f !== RUN_META) : [];
if (files.length === 0) {
  console.error(`status coverage: no observations under ${path.relative(root, dir)} (run the integration and fuzz tiers first)`);
  process.exit(1);
}
for (const file of files) {
  for (const [op, statuses] of Object.entries(JSON.parse(readFileSync(path.join(dir, file), 'utf8')))) {
    if (!observed.has(op)) observed.set(op, new Map());
    const seen = observed.get(op);
    for (const [status, names] of Object.entries(statuses)) {
      if (!seen.has(status)) seen.set(status, new Set());
      for (const name of names) seen.get(status).add(name.toLowerCase());
    }
  }
}

const allStatuses = [...new Set([...declared.values(), ...observed.values()].flatMap((s) => [...s.keys()]))].sort();
const undeclared = [];
const unproduced = [];
// ✓ declared and observed, · declared and not observed (500: expected), ! declared (≠500) and never observed, ✗ observed but undeclared.
const rows = [...observed.keys()].sort().map((op) => {
  const d = declared.get(op) ?? new Map();
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

// Headers: every one received (EXEMPT_HEADERS aside) with a declared status must be declared on
// that response. Undeclared statuses are reported above; their headers have nothing to match.
const undeclaredHeaders = [];
const headerNames = new Set();
let pairs = 0;
let triples = 0;
for (const [op, statuses] of [...observed].sort(([a], [b]) => a.localeCompare(b))) {
  for (const [status, names] of [...statuses].sort(([a], [b]) => a.localeCompare(b))) {
    const declaredNames = declared.get(op)?.get(status);
    if (!declaredNames) continue;
    pairs++;
    for (const name of [...names].sort()) {
      if (EXEMPT_HEADERS.has(name)) continue;
      headerNames.add(name);
      triples++;
      if (!declaredNames.has(name)) undeclaredHeaders.push({ op, status, name });
    }
  }
}
const undeclaredByName = new Map();
for (const { name } of undeclaredHeaders) undeclaredByName.set(name, (undeclaredByName.get(name) ?? 0) + 1);
console.log(
  `\nHeader coverage: ${triples} operation × status × header triples received over ${pairs} operation × status pairs, ` +
    `${headerNames.size} header names (not counting ${[...EXEMPT_HEADERS].join(', ')}); ${undeclaredHeaders.length} not declared` +
    (undeclaredByName.size
      ? `: ${[...undeclaredByName]
          .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
          .map(([name, n]) => `${name} ${n}`)
          .join(', ')}`
      : ''),
);

let failed = false;
if (undeclaredHeaders.length) {
  failed = true;
  console.error(
    `\nFAIL: ${undeclaredHeaders.length} received response headers are not declared on their operation's response in openapi.yaml:\n  ` +
      undeclaredHeaders.map(({ op, status, name }) => `${op} ${status} ${name}`).join('\n  '),
  );
}
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
    `\nstatus coverage: every observed status and header is declared${unproduced.length ? '' : ', and every declared status (but 500) was produced'}.`,
  );
process.exit(failed ? 1 : 0);
