// The reference speaks the deployed contract: the official SDK (its standalone funcs/*, a NovuCore pointed at a
// reference on port 0, retries off) drives every operation of the spec and of provisioning.md and reads each answer.
import { NovuCore } from '@novu/api/core.js';
import { agentsCreate } from '@novu/api/funcs/agentsCreate.js';
import { agentsDelete } from '@novu/api/funcs/agentsDelete.js';
import { agentsIntegrationsCreate } from '@novu/api/funcs/agentsIntegrationsCreate.js';
import { agentsIntegrationsUpdate } from '@novu/api/funcs/agentsIntegrationsUpdate.js';
import { environmentsList } from '@novu/api/funcs/environmentsList.js';
import { environmentVariablesCreate } from '@novu/api/funcs/environmentVariablesCreate.js';
import { environmentVariablesDelete } from '@novu/api/funcs/environmentVariablesDelete.js';
import { environmentVariablesList } from '@novu/api/funcs/environmentVariablesList.js';
import { integrationsCreate } from '@novu/api/funcs/integrationsCreate.js';
import { integrationsDelete } from '@novu/api/funcs/integrationsDelete.js';
import { layoutsCreate } from '@novu/api/funcs/layoutsCreate.js';
import { layoutsDelete } from '@novu/api/funcs/layoutsDelete.js';
import { layoutsGeneratePreview } from '@novu/api/funcs/layoutsGeneratePreview.js';
import { subscribersCreate } from '@novu/api/funcs/subscribersCreate.js';
import { subscribersCreateBulk } from '@novu/api/funcs/subscribersCreateBulk.js';
import { subscribersDelete } from '@novu/api/funcs/subscribersDelete.js';
import { subscribersPreferencesList } from '@novu/api/funcs/subscribersPreferencesList.js';
import { subscribersPreferencesUpdate } from '@novu/api/funcs/subscribersPreferencesUpdate.js';
import { topicsCreate } from '@novu/api/funcs/topicsCreate.js';
import { topicsDelete } from '@novu/api/funcs/topicsDelete.js';
import { topicsSubscriptionsCreate } from '@novu/api/funcs/topicsSubscriptionsCreate.js';
import { topicsSubscriptionsDelete } from '@novu/api/funcs/topicsSubscriptionsDelete.js';
import { topicsSubscriptionsList } from '@novu/api/funcs/topicsSubscriptionsList.js';
import { trigger } from '@novu/api/funcs/trigger.js';
import { triggerBulk } from '@novu/api/funcs/triggerBulk.js';
import { workflowsCreate } from '@novu/api/funcs/workflowsCreate.js';
import { workflowsDelete } from '@novu/api/funcs/workflowsDelete.js';
import { workflowsGet } from '@novu/api/funcs/workflowsGet.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP_TYPES } from '../../reference/routes/workflows.ts';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { sdkOutcome } from '../../harness/client/sdk-outcome.ts';

let ref: RunningReference;
let sdk: NovuCore;
const read = async <T,>(label: string, call: Promise<{ ok: true; value: T } | { ok: false; error: unknown }>): Promise<T> => {
  const result = await call;
  const outcome = sdkOutcome(result);
  expect(outcome.problem, `${label}: the official client could not use the reference's answer`).toBeUndefined();
  return (result as { value: T }).value;
};

beforeAll(async () => {
  ref = await startReference({});
  sdk = new NovuCore({ secretKey: ref.apiKeys.dev, serverURL: ref.baseUrl, retryConfig: { strategy: 'none' } });
});
afterAll(() => ref.close());

describe('the official SDK reads every answer of the reference', () => {
  it('workflows: create with every step type, read, trigger (single, bulk, empty transactionId), delete', async () => {
    const steps = STEP_TYPES.map((type) => ({ name: `step ${type}`, type })) as never[];
    const created = await read('workflowsCreate', workflowsCreate(sdk, { name: 'SDK workflow', workflowId: 'sdk-wf', steps, active: true }));
    expect(created.result.steps.map((s) => s.type)).toEqual([...STEP_TYPES]);
    await read('workflowsGet', workflowsGet(sdk, 'sdk-wf'));
    await read('subscribersCreate', subscribersCreate(sdk, { subscriberId: 'sdk-sub', firstName: 'Ada' }));
    const triggered = await read('trigger', trigger(sdk, { workflowId: 'sdk-wf', to: 'sdk-sub', payload: { n: 1 } }));
    expect(triggered.result.acknowledged).toBe(true);
    await read('trigger with an empty transactionId', trigger(sdk, { workflowId: 'sdk-wf', to: ['sdk-sub'], transactionId: '' }));
    await read('triggerBulk', triggerBulk(sdk, { events: [{ workflowId: 'sdk-wf', to: 'sdk-sub' }] }));
    await read('subscribersCreateBulk', subscribersCreateBulk(sdk, { subscribers: [{ subscriberId: 'sdk-bulk-1' }] }));
    await read('workflowsDelete', workflowsDelete(sdk, 'sdk-wf'));
  });

  it('environments and environment variables: list, create, list with search, delete', async () => {
    const environments = await read('environmentsList', environmentsList(sdk));
    const values = environments.result.map((e) => ({ environmentId: e.id, value: 'v' }));
    await read('environmentVariablesCreate', environmentVariablesCreate(sdk, { key: 'SDK_VAR', type: 'string', isSecret: true, values }));
    const listed = await read('environmentVariablesList', environmentVariablesList(sdk, 'sdk_v'));
    expect(listed.result.map((v) => v.key)).toEqual(['SDK_VAR']);
    await read('environmentVariablesDelete', environmentVariablesDelete(sdk, 'SDK_VAR'));
  });

  it('subscriber preferences: update (global, workflow, schedule) and read', async () => {
    await read('workflowsCreate', workflowsCreate(sdk, { name: 'Prefs', workflowId: 'sdk-prefs', steps: [{ name: 'in app', type: 'in_app' }] as never[] }));
    await read('subscribersCreate', subscribersCreate(sdk, { subscriberId: 'sdk-pref-sub' }));
    await read('subscribersPreferencesUpdate global', subscribersPreferencesUpdate(sdk, { channels: { email: false } }, 'sdk-pref-sub'));
    await read('subscribersPreferencesUpdate workflow', subscribersPreferencesUpdate(sdk, { workflowId: 'sdk-prefs', channels: { inApp: false } }, 'sdk-pref-sub'));
    const schedule = { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } } };
    await read('subscribersPreferencesUpdate schedule', subscribersPreferencesUpdate(sdk, { schedule }, 'sdk-pref-sub'));
    await read('subscribersPreferencesList', subscribersPreferencesList(sdk, { subscriberId: 'sdk-pref-sub' }));
    await read('subscribersDelete', subscribersDelete(sdk, 'sdk-pref-sub'));
  });

  it('topics: upsert, subscribe, list, partial delete, delete', async () => {
    await read('subscribersCreate', subscribersCreate(sdk, { subscriberId: 'sdk-topic-sub' }));
    await read('topicsCreate', topicsCreate(sdk, { key: 'sdk-topic', name: 'SDK topic' }));
    await read('topicsCreate of an existing topic (200)', topicsCreate(sdk, { key: 'sdk-topic', name: 'SDK topic, renamed' }));
    await read('topicsSubscriptionsCreate', topicsSubscriptionsCreate(sdk, { subscriptions: ['sdk-topic-sub'] }, 'sdk-topic'));
    await read('topicsSubscriptionsList', topicsSubscriptionsList(sdk, { topicKey: 'sdk-topic' }));
    const removed = await read('topicsSubscriptionsDelete', topicsSubscriptionsDelete(sdk, { subscriptions: [{ subscriberId: 'sdk-topic-sub' }, { subscriberId: 'sdk-nobody' }] }, 'sdk-topic'));
    expect(removed.result.meta).toEqual({ totalCount: 2, successful: 1, failed: 1 });
    await read('topicsDelete', topicsDelete(sdk, 'sdk-topic'));
  });

  it('layouts: create, preview (null subscriber names), delete', async () => {
    await read('layoutsCreate', layoutsCreate(sdk, { layoutId: 'sdk-layout', name: 'SDK layout' }));
    const subscriber = { firstName: null, lastName: null, email: 'ada@example.test' };
    const preview = await read('layoutsGeneratePreview', layoutsGeneratePreview(sdk, { controlValues: {}, previewPayload: { subscriber } }, 'sdk-layout'));
    expect(preview.result.result?.type).toBe('email');
    await read('layoutsDelete', layoutsDelete(sdk, 'sdk-layout'));
  });

  it('integrations and agents: create, link, update the link, delete', async () => {
    const first = await read('integrationsCreate', integrationsCreate(sdk, { providerId: 'slack', channel: 'chat', name: 'Slack', identifier: 'sdk-slack', active: true }));
    await read('integrationsCreate', integrationsCreate(sdk, { providerId: 'msteams', channel: 'chat', name: 'Teams', identifier: 'sdk-teams', active: true }));
    await read('agentsCreate', agentsCreate(sdk, { name: 'SDK agent', identifier: 'sdk-agent' }, 'conformance'));
    const link = await read('agentsIntegrationsCreate', agentsIntegrationsCreate(sdk, { integrationIdentifier: 'sdk-slack' }, 'sdk-agent'));
    const updated = await read('agentsIntegrationsUpdate', agentsIntegrationsUpdate(sdk, {
      identifier: 'sdk-agent',
      agentIntegrationId: link.result.id,
      updateAgentIntegrationRequestDto: { integrationIdentifier: 'sdk-teams' },
    }));
    expect(updated.result.integration.identifier).toBe('sdk-teams');
    await read('agentsDelete', agentsDelete(sdk, 'sdk-agent', 'false'));
    await read('integrationsDelete', integrationsDelete(sdk, first.result.id ?? ''));
  });
});
