// The faker builders produce request bodies valid against the request schemas, over many seeds, with no unknown fields.
import { describe, expect, it } from 'vitest';
import {
  SLUG_PATTERN, buildCreateWorkflow, buildDeleteTopicSubscriptions, buildLayoutPreviewRequest, buildPatchSubscriberPreferences,
  buildSchedule, buildStep, buildTriggerEvent, buildTriggerRecipient, buildUpdateAgentIntegration, getRunPrefix, setRunPrefix, slugId,
  STEP_TYPES,
} from '../../fixtures/builders/index.ts';
import { registry, type SchemaName } from '../../schemas/registry.ts';
import { formatViolation } from '../../schemas/violations.ts';

const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);

const builders: [SchemaName, (seed: number) => unknown][] = [
  ['CreateWorkflowDto', (s) => buildCreateWorkflow(undefined, s)],
  ['StepUpsertDto', (s) => buildStep(STEP_TYPES[s % STEP_TYPES.length]!, undefined, s)],
  ['TriggerEventRequestDto', (s) => buildTriggerEvent(undefined, s)],
  ['TriggerRecipientDto', (s) => buildTriggerRecipient(undefined, s)],
  ['PatchSubscriberPreferencesDto', (s) => buildPatchSubscriberPreferences(undefined, s)],
  ['ScheduleDto', (s) => buildSchedule(undefined, s)],
  ['LayoutPreviewRequestDto', (s) => buildLayoutPreviewRequest(undefined, s)],
  ['DeleteTopicSubscriptionsRequestDto', (s) => buildDeleteTopicSubscriptions(undefined, s)],
  ['UpdateAgentIntegrationRequestDto', (s) => buildUpdateAgentIntegration(undefined, s)],
];

describe.each(builders)('%s builder', (schema, build) => {
  it(`is valid (strict: no unknown fields) for ${SEEDS.length} seeds`, () => {
    for (const seed of SEEDS) {
      const body = build(seed);
      const r = registry.validate(schema, body, { strict: true });
      const problems = [...r.violations, ...r.warnings].map((v) => formatViolation(schema, v));
      expect(problems, `seed ${seed}: ${JSON.stringify(body)}`).toEqual([]);
    }
  });

  it('is deterministic per seed', () => {
    expect(build(42)).toEqual(build(42));
    expect(build(42)).not.toEqual(build(43));
  });
});

describe('builder specifics', () => {
  it('overrides replace built fields', () => {
    const body = buildCreateWorkflow({ workflowId: 'fixed-id', steps: [] }, 1);
    expect(body.workflowId).toBe('fixed-id');
    expect(body.steps).toEqual([]);
  });

  it('the recipient and entry limits are reachable: 100 valid, 101 invalid', () => {
    expect(registry.validate('TriggerEventRequestDto', buildTriggerEvent(undefined, 7, 100)).valid).toBe(true);
    expect(registry.validate('TriggerEventRequestDto', buildTriggerEvent(undefined, 7, 101)).valid).toBe(false);
    expect(registry.validate('DeleteTopicSubscriptionsRequestDto', buildDeleteTopicSubscriptions(undefined, 7, { entries: 100 })).valid).toBe(true);
    expect(registry.validate('DeleteTopicSubscriptionsRequestDto', buildDeleteTopicSubscriptions(undefined, 7, { entries: 101 })).valid).toBe(false);
  });

  it('subscription identifiers join the topic key and the subscriber id with a colon', () => {
    const body = buildDeleteTopicSubscriptions(undefined, 3, { topicKey: 'news', entries: 20 });
    for (const s of body.subscriptions ?? []) if (s.identifier) expect(s.identifier).toMatch(/^news:.+$/);
  });
});

describe('slugId', () => {
  it.each([
    ['run-1', 'welcome workflow', 'run-1-welcome-workflow'],
    ['cf_2026.01', '  Ünïcode / spaces!! ', 'cf_2026.01-n-code-spaces'],
    ['', 'x', 'x'],
    ['-', '--', 'id'],
    ['a', 'b..c__d', 'a-b-c-d'],
  ])('slugId(%j, %j) = %j', (prefix, label, expected) => {
    expect(slugId(prefix, label)).toBe(expected);
    expect(slugId(prefix, label)).toMatch(SLUG_PATTERN);
  });

  it('built identifiers carry the run prefix', () => {
    const before = getRunPrefix();
    try {
      setRunPrefix('run-abc');
      expect(buildCreateWorkflow(undefined, 5).workflowId.startsWith('run-abc-')).toBe(true);
    } finally {
      setRunPrefix(before);
    }
  });
});
