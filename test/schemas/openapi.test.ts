// The OpenAPI document: linted by Redocly's recommended-strict ruleset, shipped as generated, the eight operations of the
// suite, and its schemas judging every schema case exactly as the registry does.
import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { FUZZ_TARGETS } from '../../fuzz/targets.ts';
import { OPERATIONS } from '../../harness/operations.ts';
import { openApiDocument, openApiText } from '../../schemas/openapi/document.ts';
import { SHIPPED_OPENAPI } from '../../schemas/openapi/generate.ts';
import { caseFileNames, loadCases } from './case-files.ts';
import { runCli } from '../hostile/run-cli.ts';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
type Doc = { paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>> };

describe('conformance openapi', () => {
  test('passes the recommended-strict ruleset of a real OpenAPI linter (@redocly/openapi-core) with no problem', async () => {
    const config = await createConfig({ extends: ['recommended-strict'] });
    const problems = await lintFromString({ source: openApiText(), absoluteRef: '/openapi.json', config });
    expect(problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  });

  test('the shipped schemas/openapi/openapi.json is the document of the current schemas (else: node --import tsx schemas/openapi/generate.ts)', () => {
    expect(readFileSync(SHIPPED_OPENAPI, 'utf8') === openApiText(), 'schemas/openapi/openapi.json is stale').toBe(true);
  });

  test('`conformance openapi` prints the document', async () => {
    const { code, stdout } = await runCli(['openapi']);
    expect(code).toBe(0);
    expect(stdout).toBe(openApiText());
  });

  test('describes the eight operations the suite tests, each with the request schema the fuzzer generates from', () => {
    const doc = openApiDocument() as unknown as Doc;
    const described = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect(described.sort()).toEqual(OPERATIONS.map((o) => `${o.method} ${o.template}`).sort());
    for (const target of FUZZ_TARGETS) {
      const op = doc.paths[target.operation.template]![target.operation.method.toLowerCase()]!;
      expect(op.requestBody?.content['application/json']!.schema.$ref, target.id).toBe(target.body ? `#/components/schemas/${target.body}` : undefined);
    }
  });

  // the document's schemas are a translation (draft-07 → 2020-12, references moved): the cases prove nothing changed
  describe('its schemas accept and reject every schema case as the registry does', () => {
    const doc = openApiDocument() as { components: { schemas: Record<string, unknown> } };
    // OpenAPI's discriminator (with its mapping) is an annotation: oneOf alone decides, as in the registry
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: 'openapi.json' });
    // the parsed RateLimit-Policy header is no body: the document describes the header as text
    for (const file of caseFileNames().filter((f) => !f.startsWith('RateLimitPolicyHeader.'))) {
      for (const group of loadCases(file)) {
        test(`${file}: ${group.description}`, () => {
          const name = group.schema.$ref.replace(/#.*$/, '');
          const validate = ajv.getSchema(`openapi.json#/components/schemas/${name}`)!;
          for (const c of group.tests) expect(validate(c.data), c.description).toBe(c.valid);
        });
      }
    }
  });
});
