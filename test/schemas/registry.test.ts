import { describe, expect, it } from 'vitest';
import { SCHEMA_NAMES, registry } from '../../schemas/registry.ts';
import { loadSchema } from '../../schemas/schema-files.ts';

const TS = '2026-01-01T00:00:00.000Z';
const error = { statusCode: 404, timestamp: TS, path: '/v2/workflows/x' };

describe('registry', () => {
  it('knows the 27 names, each the $id of schemas/<Name>.schema.json', () => {
    expect(SCHEMA_NAMES).toHaveLength(27);
    for (const name of SCHEMA_NAMES) expect(loadSchema(name).$id).toBe(name);
  });

  it('reports violations as JSON pointer, rule with schema location, value and message', () => {
    const r = registry.validate('TriggerEventResponseDto', { acknowledged: 'yes', status: 'banana' });
    expect(r.valid).toBe(false);
    expect(r.violations).toEqual(expect.arrayContaining([
      { path: '/acknowledged', rule: 'type TriggerEventResponseDto#/properties/acknowledged/type', value: 'yes', message: 'must be boolean' },
      { path: '/status', rule: 'enum TriggerEventResponseDto#/properties/status/enum', value: 'banana', message: 'must be equal to one of the allowed values' },
    ]));
  });

  it('points a missing required property at where it should be', () => {
    const r = registry.validate('ErrorDto', { statusCode: 400, timestamp: TS });
    expect(r.violations).toEqual([{ path: '/path', rule: 'required ErrorDto#/required', value: undefined, message: 'is required' }]);
  });

  it('names the referenced schema in the rule of a nested violation, once per problem', () => {
    const r = registry.validate('CreateWorkflowDto', { name: 'n', workflowId: 'w', steps: [{ name: 's', type: 'banana' }] });
    expect(r.violations).toEqual([expect.objectContaining({ path: '/steps/0/type', rule: 'enum StepUpsertDto/properties/type/enum', value: 'banana' })]);
  });

  it('strict mode: unknown properties are warnings, never violations', () => {
    const body = { ...error, traceId: 'abc', ctx: { a: 1 } };
    const plain = registry.validate('ErrorDto', body);
    expect(plain).toEqual({ valid: true, violations: [], warnings: [] });
    const strict = registry.validate('ErrorDto', body, { strict: true });
    expect(strict.valid).toBe(true);
    expect(strict.violations).toEqual([]);
    expect(strict.warnings).toEqual([expect.objectContaining({ path: '/traceId', value: 'abc', rule: 'additionalProperties ErrorDto#/additionalProperties' })]);
  });

  it('strict mode looks into referenced schemas and discriminated steps, not into free-form objects', () => {
    const wf = {
      _id: '1', name: 'n', workflowId: 'w', slug: 's', createdAt: TS, updatedAt: TS, origin: 'external', preferences: { any: 1 },
      status: 'ACTIVE', severity: 'none', payloadSchema: { free: 1 }, steps: [{ name: 's', type: 'email', extraStepField: 1 }],
      agent: { identifier: 'a', extraAgentField: 2 },
    };
    const r = registry.validate('WorkflowResponseDto', wf, { strict: true });
    expect(r.valid).toBe(true);
    expect(r.warnings.map((w) => w.path).sort()).toEqual(['/agent/extraAgentField', '/steps/0/extraStepField']);
  });

  it('throws on an unknown name (a programming error, not a validation result)', () => {
    expect(() => registry.validate('Nope' as never, {})).toThrow(/unknown schema/);
  });
});
