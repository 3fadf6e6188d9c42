import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { loadOpenApiDocument, type ParsedOpenApi } from './openapi-document.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'openapi-document-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const yamlText = 'openapi: 3.1.0\ninfo:\n  title: t\n  version: "1"\npaths: {}\n';
const yamlPath = path.join(dir, 'openapi.yaml');
writeFileSync(yamlPath, yamlText);
const parsedPath = path.join(dir, 'openapi.json');
/** A parsed copy that says where it came from, so the test can tell which one the loader took. */
const parsedCopy = (sourceSha256: string): ParsedOpenApi => ({
  sourceSha256,
  document: { openapi: '3.1.0', info: { title: 'from the build', version: '1' }, paths: {} },
});
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

test("the build's parsed contract is used when it was made from this openapi.yaml, the YAML is parsed otherwise", () => {
  const fromYaml = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} };
  assert.deepEqual(loadOpenApiDocument(yamlPath, parsedPath), fromYaml, 'no build: the YAML');
  writeFileSync(parsedPath, JSON.stringify(parsedCopy(sha256(yamlText))));
  assert.equal(loadOpenApiDocument(yamlPath, parsedPath).info.title, 'from the build');
  writeFileSync(parsedPath, JSON.stringify(parsedCopy(sha256(`${yamlText}# edited since\n`))));
  assert.deepEqual(loadOpenApiDocument(yamlPath, parsedPath), fromYaml, 'a copy of another contract: the YAML');
  writeFileSync(parsedPath, JSON.stringify(parsedCopy(sha256(yamlText))).slice(0, 40));
  assert.deepEqual(loadOpenApiDocument(yamlPath, parsedPath), fromYaml, 'a copy cut short: the YAML');
});
