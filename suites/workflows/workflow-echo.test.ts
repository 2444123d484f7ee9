// WF-02 as a class: every optional field of CreateWorkflowDto comes back as sent, with the hard values among them —
// falsy values ("", false, [], {}), a mixed-case workflowId, given stepIds, nested objects never answered as null —
// in the create response and read back. Bodies are drawn by fast-check; the all-falsy body is always among them.
import fc from 'fast-check';
import { expect } from 'vitest';
import { checkProperty } from '../../fixtures/builders/property-check.ts';
import { conformance } from '../../fixtures/conformance.ts';
import { SEVERITIES, STEP_TYPES, expectCreated, postWorkflow, readWorkflow } from '../../fixtures/workflows/workflow-requests.ts';

/** The optional fields and the hard values each is sent with (absent is one of the choices: the key is left out). */
const optionalFields = fc.record(
  {
    description: fc.constantFrom<string>('', ' ', 'déjà vu ✓'),
    tags: fc.constantFrom([] as string[], ['Mixed-Case', 'lower']),
    active: fc.boolean(),
    validatePayload: fc.boolean(),
    isTranslationEnabled: fc.boolean(),
    payloadSchema: fc.constantFrom<Record<string, unknown> | null>({}, null, { type: 'object' }, { type: 'object', properties: { n: { type: 'number', minimum: 0 } } }),
    severity: fc.constantFrom(...SEVERITIES),
    preferences: fc.constantFrom<Record<string, unknown>>(
      { user: { all: { enabled: false, readOnly: false }, channels: {} }, workflow: { all: { enabled: false, readOnly: false }, channels: { email: { enabled: false } } } },
      { workflow: { channels: { in_app: { enabled: false } } } },
    ),
  },
  { requiredKeys: [] },
);

const workflowIdLabel = fc.constantFrom('Wf-MiXed', 'WF-UPPER', 'wF.Dot_Under');
const givenStepId = fc.constantFrom('Step-A1', 'sTeP.b_2', 'STEP');

/** Every field at its falsy or empty value, the mixed-case workflowId and a given stepId: always run first. */
const ALL_FALSY = {
  description: '',
  tags: [] as string[],
  active: false,
  validatePayload: false,
  isTranslationEnabled: false,
  payloadSchema: {},
  severity: 'none',
  preferences: { user: { all: { enabled: false, readOnly: false }, channels: {} }, workflow: { all: { enabled: false, readOnly: false }, channels: {} } },
};

function expectEcho(answer: Record<string, any>, sent: Record<string, any>, where: string): void {
  const keys = Object.keys(answer ?? {});
  for (const field of ['name', 'workflowId', 'description', 'active', 'validatePayload', 'isTranslationEnabled', 'severity'] as const) {
    if (!(field in sent)) continue;
    expect(keys, `${where}: \`${field}\` was sent as ${JSON.stringify(sent[field])}, so the response carries it (a falsy value is a value)`).toContain(field);
    expect(answer[field], `${where}: \`${field}\` is echoed exactly as sent`).toStrictEqual(sent[field]);
  }
  if ('tags' in sent) {
    expect(keys, `${where}: \`tags\` was sent as ${JSON.stringify(sent.tags)}, so the response carries it`).toContain('tags');
    expect([...(answer.tags ?? [])].sort(), `${where}: \`tags\` is echoed as sent`).toEqual([...sent.tags].sort());
  }
  if ('payloadSchema' in sent) {
    expect(keys, `${where}: \`payloadSchema\` was sent as ${JSON.stringify(sent.payloadSchema)}, so the response carries it`).toContain('payloadSchema');
    if (sent.payloadSchema === null) expect(answer.payloadSchema, `${where}: \`payloadSchema: null\` is echoed as null`).toBeNull();
    else {
      expect(answer.payloadSchema, `${where}: \`payloadSchema\` ${JSON.stringify(sent.payloadSchema)} is an object, never answered as null`).not.toBeNull();
      expect(answer.payloadSchema, `${where}: \`payloadSchema\` is echoed as sent`).toMatchObject(sent.payloadSchema);
    }
  }
  if ('preferences' in sent) {
    expect(answer.preferences, `${where}: \`preferences\` was sent, so the response carries an object, never null`).toBeTypeOf('object');
    expect(answer.preferences, `${where}: \`preferences\` is never answered as null`).not.toBeNull();
  }
  const steps = (answer.steps ?? []) as Record<string, unknown>[];
  expect(steps.map((s) => s.stepId), `${where}: every given stepId is echoed exactly (case kept)`).toEqual(sent.steps.map((s: Record<string, unknown>) => s.stepId));
}

conformance('WF-02', 'every optional field sent with a hard value (falsy, empty, mixed case, nested) is echoed as sent and read back alike', async ({ api, ids, cleanup }) => {
  await checkProperty(
    fc.asyncProperty(optionalFields, workflowIdLabel, givenStepId, fc.constantFrom(...STEP_TYPES), async (fields, label, stepId, type) => {
      const workflowId = ids.slug(label);
      const sent = { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'First', type: 'in_app', stepId }, { name: 'Second', type, stepId: `${stepId}-2` }], ...fields };
      const res = await postWorkflow(api, cleanup, sent);
      expectCreated(res, `the workflow ${JSON.stringify(sent)} is created`);
      expectEcho(res.data, sent, 'create response');
      const read = await readWorkflow(api, res.data._id);
      expect(read.status, 'the created workflow reads back by its _id').toBe(200);
      expectEcho(read.data, sent, 'read back');
    }),
    { numRuns: 8, examples: [[ALL_FALSY, 'Wf-MiXed', 'Step-A1', 'email']] },
  );
});

conformance('WF-02', 'a mixed-case workflowId is echoed exactly and the workflow reads back by it', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('Wf-MiXed');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [] });
  expectCreated(res, 'the workflow with a mixed-case workflowId is created');
  expect(res.data.workflowId, 'the mixed-case workflowId is echoed exactly, not lower-cased').toBe(workflowId);
  const read = await readWorkflow(api, workflowId);
  expect(read.status, `the workflow reads back by its mixed-case workflowId ${workflowId}`).toBe(200);
  expect(read.data.workflowId, 'read back, the workflowId keeps its case').toBe(workflowId);
});

conformance('WF-02', 'each severity value is echoed as sent and read back alike', async ({ api, ids, cleanup }) => {
  for (const severity of SEVERITIES) {
    const workflowId = ids.slug('wf');
    const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, severity, steps: [] });
    expectCreated(res, `the workflow with severity ${severity} is created`);
    expect(res.data.severity, `severity "${severity}" is echoed as sent`).toBe(severity);
    const read = await readWorkflow(api, res.data._id);
    expect(read.data?.severity, `read back, severity "${severity}" is kept`).toBe(severity);
  }
});
