// Generates codegen/openapi.ts from openapi.yaml with openapi-typescript.
//   npm run codegen          rewrite the file
//   npm run codegen:check    fail (exit 1) when the committed file is stale
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const root = new URL('../', import.meta.url);
const target = fileURLToPath(new URL('codegen/openapi.ts', root));
const header = `// GENERATED FILE — do not edit by hand.
// Source: openapi.yaml. Regenerate with \`npm run codegen\`; \`npm run codegen:check\` (part of npm test) fails when stale.
`;

// Default flags, as a client would generate: the contract keeps defaults in named schemas, so a field with
// a default stays optional under openapi-typescript's `defaultNonNullable` (see `npm run sdk:check`).
const ast = await openapiTS(new URL('openapi.yaml', root), { alphabetize: true });
const generated = header + astToString(ast);

if (process.argv.includes('--check')) {
  const committed = await readFile(target, 'utf8').catch(() => '');
  if (committed !== generated) {
    console.error('codegen/openapi.ts is stale: run `npm run codegen` and commit the result.');
    process.exit(1);
  }
  console.log('codegen/openapi.ts is up to date.');
} else {
  await writeFile(target, generated);
  console.log(`wrote ${target}`);
}
