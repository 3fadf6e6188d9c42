// Generates codegen/openapi.ts from openapi.yaml with openapi-typescript, after writing the table of
// problem types into openapi.yaml's description from the error registry (the `type` of every
// problem links to its row: /v1/reference#problem-<code>); and the web app's table of operations,
// web/js/generated/operations.js (operationId → method and path template), which its one API
// function `call()` (web/js/api.js) reads instead of hand-written URLs.
//   npm run codegen          rewrite all three
//   npm run codegen:check    fail (exit 1) when any committed file is stale
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import YAML from 'yaml';
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

const webTarget = fileURLToPath(new URL('web/js/generated/operations.js', root));
/** The web app's operations: `operationId: ['METHOD', '/path/{param}']`, in the contract's order (short: it is in the app's bundle). */
function webOperations(doc: { paths: Record<string, Record<string, { operationId?: string }>> }): string {
  const rows = Object.entries(doc.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method, op]) => /^(get|put|post|patch|delete|head)$/.test(method) && op.operationId)
      .map(([method, op]) => `  ${op.operationId}: ['${method.toUpperCase()}', '${template}'],`),
  );
  return `${header.replace('`npm run codegen:check` (part of npm test)', '`npm run codegen:check`')}// The contract's operations as web/js/api.js \`call()\` sends them: operationId → [method, path template].
export const operations = {
${rows.join('\n')}
};
`;
}
const webGenerated = webOperations(YAML.parse(newYaml));

if (process.argv.includes('--check')) {
  const committed = await readFile(target, 'utf8').catch(() => '');
  const committedWeb = await readFile(webTarget, 'utf8').catch(() => '');
  if (committed !== generated || yaml !== newYaml || committedWeb !== webGenerated) {
    const stale =
      yaml !== newYaml
        ? "openapi.yaml's table of problem types"
        : committed !== generated
          ? 'codegen/openapi.ts'
          : 'web/js/generated/operations.js';
    console.error(`${stale} is stale: run \`npm run codegen\` and commit the result.`);
    process.exit(1);
  }
  console.log('codegen/openapi.ts, web/js/generated/operations.js and the table of problem types are up to date.');
} else {
  if (yaml !== newYaml) await writeFile(contract, newYaml);
  await writeFile(target, generated);
  await writeFile(webTarget, webGenerated);
  console.log(`wrote ${target} and ${webTarget}`);
}
