// A request naming a resource that does not exist gets 404 with the common error body (ERR-03).
import { conformance } from '../../fixtures/conformance.ts';
import { expectErrorResponse } from '../../harness/checks/error-body.ts';

/** A syntactically valid internal id (24 hex, as the deployed service's) that names nothing. */
const UNKNOWN_OBJECT_ID = '0000000000000000000000ff';

conformance('ERR-03', 'reading an unknown workflow gets 404 and the common error body', async ({ api, ids }) => {
  const res = await api.get(`/v2/workflows/${ids.slug('missing')}`);
  expectErrorResponse(res, 404, 'GET /v2/workflows/{unknown workflowId}');
});

conformance('ERR-03', 'deleting subscriptions of an unknown topic gets 404 and the common error body', async ({ api, ids }) => {
  const res = await api.delete(`/v2/topics/${ids.slug('missing')}/subscriptions`, { body: { subscriptions: [{ subscriberId: ids.slug('sub') }] } });
  expectErrorResponse(res, 404, 'DELETE /v2/topics/{unknown topicKey}/subscriptions');
});

conformance('ERR-03', 'updating preferences of an unknown subscriber gets 404 and the common error body', async ({ api, ids, provision }) => {
  const subscriberId = ids.slug('missing');
  provision.forgetSubscriber(subscriberId); // in case the target upserts it instead
  const res = await api.patch(`/v2/subscribers/${subscriberId}/preferences`, { channels: { email: false } });
  expectErrorResponse(res, 404, 'PATCH /v2/subscribers/{unknown subscriberId}/preferences');
});

conformance('ERR-03', 'previewing an unknown layout gets 404 and the common error body', async ({ api, ids }) => {
  const res = await api.post(`/v2/layouts/${ids.slug('missing')}/preview`, { controlValues: {}, previewPayload: { subscriber: { firstName: 'Ada' } } });
  expectErrorResponse(res, 404, 'POST /v2/layouts/{unknown layoutId}/preview');
});

conformance('ERR-03', 'updating an integration link of an unknown agent gets 404 and the common error body', async ({ api, ids, provision }) => {
  const integration = await provision.integration();
  const res = await api.patch(`/v1/agents/${ids.slug('missing')}/integrations/${UNKNOWN_OBJECT_ID}`, { integrationIdentifier: integration.identifier });
  expectErrorResponse(res, 404, 'PATCH /v1/agents/{unknown identifier}/integrations/{id}');
});

conformance('ERR-03', 'updating an unknown integration link of an existing agent gets 404 and the common error body', async ({ api, provision }) => {
  const agent = await provision.agent();
  const integration = await provision.integration();
  const res = await api.patch(`/v1/agents/${agent.identifier}/integrations/${UNKNOWN_OBJECT_ID}`, { integrationIdentifier: integration.identifier });
  expectErrorResponse(res, 404, 'PATCH /v1/agents/{identifier}/integrations/{unknown agentIntegrationId}');
});
