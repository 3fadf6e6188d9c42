// Generates codegen/openapi.ts from openapi.yaml with openapi-typescript, after writing the table of
// problem types into openapi.yaml's description from the error registry (the `type` of every
// problem links to its row: /v1/reference#problem-<code>).
//   npm run codegen          rewrite both
//   npm run codegen:check    fail (exit 1) when either committed file is stale
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { PROBLEM_TYPE_BASE, PROBLEMS } from '../src/errors/error-registry.ts';

const root = new URL('../', import.meta.url);
const target = fileURLToPath(new URL('codegen/openapi.ts', root));
const header = `// GENERATED FILE — do not edit by hand.
// Source: openapi.yaml. Regenerate with \`npm run codegen\`; \`npm run codegen:check\` (part of npm test) fails when stale.
`;

const contract = fileURLToPath(new URL('openapi.yaml', root));
const START = '<!-- problem-types: written from src/errors/error-registry.ts by `npm run codegen` -->';
const END = '<!-- /problem-types -->';
const anchor = PROBLEM_TYPE_BASE.slice(PROBLEM_TYPE_BASE.indexOf('#') + 1);
/** The description's table of problem types, one row (and anchor, which Redoc scrolls to) per code. */
function problemTable(indent: string): string {
  const rows = Object.entries(PROBLEMS).map(
    ([code, p]) =>
      `<tr id="${anchor}${code}" data-section-id="${anchor}${code}"><td><code>${code}</code></td><td>${p.status}</td><td>${p.title}</td></tr>`,
  );
  return [START, '<table>', '<tr><th>code</th><th>status</th><th>title</th></tr>', ...rows, '</table>', END]
    .map((l) => indent + l)
    .join('\n');
}
const yaml = await readFile(contract, 'utf8');
const block = new RegExp(`^( *)${START.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*?${END}$`, 'm');
const found = block.exec(yaml);
if (!found) throw new Error(`openapi.yaml has no problem-types block (${START} … ${END})`);
const newYaml = yaml.replace(block, problemTable(found[1]));

// Default flags, as a client would generate: the contract keeps defaults in named schemas, so a field with
// a default stays optional under openapi-typescript's `defaultNonNullable` (see `npm run sdk:check`).
const ast = await openapiTS(newYaml, { alphabetize: true });
const generated = header + astToString(ast);

if (process.argv.includes('--check')) {
  const committed = await readFile(target, 'utf8').catch(() => '');
  if (committed !== generated || yaml !== newYaml) {
    console.error(
      `${yaml !== newYaml ? "openapi.yaml's table of problem types" : 'codegen/openapi.ts'} is stale: run \`npm run codegen\` and commit the result.`,
    );
    process.exit(1);
  }
  console.log('codegen/openapi.ts and the table of problem types are up to date.');
} else {
  if (yaml !== newYaml) await writeFile(contract, newYaml);
  await writeFile(target, generated);
  console.log(`wrote ${target}`);
}
