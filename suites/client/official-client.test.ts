// CLIENT-01: the official SDK, as a real client of the target, sends each of the eight operations and reads the
// answer with its own models. Its traffic goes through the harness (recorded, redacted, checked, reproducible);
// its retries are off. Setup uses the harness's provisioning, so only the operation under test is the SDK's.
import { agentsIntegrationsUpdate } from '@novu/api/funcs/agentsIntegrationsUpdate.js';
import { environmentsList } from '@novu/api/funcs/environmentsList.js';
import { environmentVariablesList } from '@novu/api/funcs/environmentVariablesList.js';
import { layoutsGeneratePreview } from '@novu/api/funcs/layoutsGeneratePreview.js';
import { subscribersPreferencesUpdate } from '@novu/api/funcs/subscribersPreferencesUpdate.js';
import { topicsSubscriptionsDelete } from '@novu/api/funcs/topicsSubscriptionsDelete.js';
import { trigger } from '@novu/api/funcs/trigger.js';
import { workflowsCreate } from '@novu/api/funcs/workflowsCreate.js';
import { conformance } from '../../fixtures/conformance.ts';
import { officialClient } from '../../harness/client/official-client.ts';
import { readBySdk } from '../../fixtures/client/read-by-sdk.ts';

conformance('CLIENT-01', 'the official client creates a workflow and reads the answer', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  cleanup.remove(`workflow ${workflowId}`, `/v2/workflows/${encodeURIComponent(workflowId)}`);
  const steps = [{ name: 'In-app', type: 'in_app' as const }, { name: 'Email', type: 'email' as const }];
  await readBySdk('workflowsCreate', workflowsCreate(officialClient(api), { name: `conformance ${workflowId}`, workflowId, steps: steps as never[] }));
});

conformance('CLIENT-01', 'the official client updates an agent integration and reads the link', async ({ api, provision }) => {
  const agent = await provision.agent();
  const first = await provision.integration();
  const second = await provision.integration();
  const link = await provision.agentLink(agent.identifier, first.identifier);
  await readBySdk('agentsIntegrationsUpdate', agentsIntegrationsUpdate(officialClient(api), {
    identifier: agent.identifier,
    agentIntegrationId: link._id,
    updateAgentIntegrationRequestDto: { integrationIdentifier: second.identifier },
  }));
});

conformance('CLIENT-01', 'the official client deletes topic subscriptions and reads the partial result', async ({ api, provision, ids }) => {
  const { key } = await provision.topic();
  const subscriber = await provision.subscriber();
  await provision.subscribe(key, [subscriber.subscriberId]);
  const subscriptions = [{ subscriberId: subscriber.subscriberId }, { subscriberId: ids.slug('ghost') }];
  await readBySdk('topicsSubscriptionsDelete', topicsSubscriptionsDelete(officialClient(api), { subscriptions }, key));
});

conformance('CLIENT-01', 'the official client generates a layout preview and reads it', async ({ api, provision }) => {
  const { layoutId } = await provision.layout();
  const previewPayload = { subscriber: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.test' } };
  await readBySdk('layoutsGeneratePreview', layoutsGeneratePreview(officialClient(api), { controlValues: {}, previewPayload }, layoutId));
});

conformance('CLIENT-01', 'the official client lists environment variables with a search and reads them', async ({ api, provision, notVerified }) => {
  const { own } = await provision.environments();
  if (!own) return notVerified('the caller key’s own environment could not be identified (no environment lists apiKeys)');
  const { key } = await provision.environmentVariable({ isSecret: false, values: [{ _environmentId: own._id, value: 'client-01' }] });
  const listed = await readBySdk('environmentVariablesList', environmentVariablesList(officialClient(api), key));
  if (listed.result.length === 0) notVerified(`the search for ${key} listed nothing, so the client had no variable to read (EV-04 judges the search)`);
});

conformance('CLIENT-01', 'the official client lists environments and reads them', async ({ api }) => {
  await readBySdk('environmentsList', environmentsList(officialClient(api)));
});

conformance('CLIENT-01', 'the official client updates subscriber preferences and reads them', async ({ api, provision }) => {
  const { subscriberId } = await provision.subscriber();
  await readBySdk('subscribersPreferencesUpdate', subscribersPreferencesUpdate(officialClient(api), { channels: { email: false } }, subscriberId));
});

conformance('CLIENT-01', 'the official client triggers an event and reads the answer', async ({ api, provision }) => {
  const workflow = await provision.workflow();
  const { subscriberId } = await provision.subscriber();
  await readBySdk('trigger', trigger(officialClient(api), { workflowId: workflow.workflowId, to: subscriberId }));
});
