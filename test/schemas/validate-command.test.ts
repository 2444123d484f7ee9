import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateCommand, type ValidateCommandOptions } from '../../schemas/validate-command.ts';
import { SCHEMA_NAMES } from '../../schemas/names.ts';

const TS = '2026-01-01T00:00:00.000Z';
const dir = mkdtempSync(join(tmpdir(), 'validate-command-'));
function file(name: string, content: string): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

async function run(opts: Partial<ValidateCommandOptions>, stdin = '') {
  let out = '';
  let err = '';
  const code = await validateCommand({ unwrap: true, list: false, ...opts }, {
    stdout: (s) => { out += s; }, stderr: (s) => { err += s; }, readStdin: async () => stdin,
  });
  return { code, out, err };
}

describe('validateCommand', () => {
  it('--list prints the 27 names', async () => {
    const r = await run({ list: true });
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toEqual([...SCHEMA_NAMES]);
  });

  it('exit 0 for a valid file, unwrapping {data}', async () => {
    const r = await run({ schema: 'TriggerEventResponseDto', file: file('ok.json', JSON.stringify({ data: { acknowledged: true, status: 'processed' } })) });
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toContain('TriggerEventResponseDto: valid');
  });

  it('--no-unwrap validates the wrapper itself', async () => {
    const r = await run({ schema: 'TriggerEventResponseDto', unwrap: false, file: file('wrapped.json', JSON.stringify({ data: { acknowledged: true, status: 'processed' } })) });
    expect(r.code).toBe(1);
    expect(r.out).toContain('/acknowledged\trequired TriggerEventResponseDto#/required\t(missing)\tis required');
  });

  it('exit 1 with one line per violation: path, rule, value, message (stdin)', async () => {
    const r = await run({ schema: 'TriggerEventResponseDto', file: '-' }, JSON.stringify({ acknowledged: true, status: 'banana' }));
    expect(r.code).toBe(1);
    expect(r.out).toContain('/status\tenum TriggerEventResponseDto#/properties/status/enum\t"banana"\tmust be equal to one of the allowed values');
    expect(r.out).toContain('TriggerEventResponseDto: invalid (1 violation)');
  });

  it('an array body is a list: each item is checked, paths carry the index', async () => {
    const env = { _id: 'e', name: 'Dev', _organizationId: 'o', identifier: 'i', type: 'dev' };
    const r = await run({ schema: 'EnvironmentDto', file: '-' }, JSON.stringify({ data: [env, { ...env, type: 'qa' }] }));
    expect(r.code).toBe(1);
    expect(r.out).toContain('/1/type\t');
  });

  it('--strict prints unknown properties as warnings without failing', async () => {
    const r = await run({ schema: 'ErrorDto', strict: true, file: '-' }, JSON.stringify({ statusCode: 400, timestamp: TS, path: '/p', extra: 1 }));
    expect(r.code).toBe(0);
    expect(r.out).toContain('warning /extra\t');
    expect(r.out).toContain('ErrorDto: valid, 1 warning');
  });

  it('exit 2 for an unknown schema, a missing file, unparsable JSON or no input', async () => {
    expect((await run({ schema: 'Nope', file: '-' }, '{}')).code).toBe(2);
    expect((await run({ schema: 'ErrorDto', file: join(dir, 'missing.json') })).code).toBe(2);
    const bad = await run({ schema: 'ErrorDto', file: '-' }, '{not json');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('cannot read JSON from stdin');
    expect((await run({ schema: 'ErrorDto' })).code).toBe(2);
  });

  it('without --schema says that --schema is missing, not that "" is an unknown schema', async () => {
    const r = await run({ file: '-' }, '{}');
    expect(r.code).toBe(2);
    expect(r.err).toBe('no --schema given: name the schema to validate against, e.g. --schema WorkflowResponseDto (--list prints them all)\n');
    expect((await run({ schema: 'Nope', file: '-' }, '{}')).err).toMatch(/^--schema "Nope": unknown schema; known schemas \(see --list\): CreateWorkflowDto, /);
  });
});
