// AGI-01..AGI-06: PATCH /v1/agents/{identifier}/integrations/{agentIntegrationId} on a link created by the test.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { expectErrorResponse } from '../../harness/checks/error-body.ts';
import type { Provisioner } from '../../fixtures/provision.ts';

interface LinkBody {
  _id?: string;
  integration?: { _id?: string; identifier?: string };
  connectedAt?: unknown;
  exceedsPlanLimit?: unknown;
}

const linkPath = (agent: string, linkId: string) => `/v1/agents/${encodeURIComponent(agent)}/integrations/${encodeURIComponent(linkId)}`;

/** An agent linked to a first integration, and a second integration to move the link to. */
async function linkedAgent(provision: Provisioner) {
  const agent = await provision.agent();
  const first = await provision.integration();
  const second = await provision.integration();
  const link = await provision.agentLink(agent.identifier, first.identifier);
  return { agent: agent.identifier, first, second, link, path: linkPath(agent.identifier, link._id) };
}

conformance('AGI-01', 'updating a link with an existing integrationIdentifier answers 200 and the link to that integration', async ({ api, provision }) => {
  const { second, link, path } = await linkedAgent(provision);
  const res = await api.patch<LinkBody>(path, { integrationIdentifier: second.identifier });
  expect(res.status, 'an update naming an existing integration identifier succeeds with 200').toBe(200);
  expect({ method: 'PATCH', path, status: res.status, body: res.json }).toMatchResponseSchema();
  expect(res.data._id, 'the response is the updated link itself').toBe(link._id);
  expect(res.data.integration?.identifier, 'integration.identifier equals the identifier given in the body').toBe(second.identifier);
  expect(res.data.integration?._id, 'the link now points to the integration named by the body').toBe(second._id);
});

conformance('AGI-02', 'an update without integrationIdentifier, or with a non-string one, is rejected with 422', async ({ api, provision }) => {
  const { path } = await linkedAgent(provision);
  const bodies = { 'an empty body {}': {}, 'integrationIdentifier: 42': { integrationIdentifier: 42 }, 'integrationIdentifier: null': { integrationIdentifier: null } };
  for (const [label, body] of Object.entries(bodies)) {
    const res = await api.patch(path, body);
    expect(res.status, `${label}: integrationIdentifier is a required string, so the body is rejected with 422`).toBe(422);
  }
});

conformance('AGI-03', 'an unknown agent, link or integration identifier gets 404', async ({ api, provision, ids }) => {
  const { agent, second, link, path } = await linkedAgent(provision);
  const valid = { integrationIdentifier: second.identifier };
  expectErrorResponse(await api.patch(linkPath(ids.slug('missing-agent'), link._id), valid), 404, 'an agent identifier that does not exist');
  // a well-formed (24 hex) id that names no link
  expectErrorResponse(await api.patch(linkPath(agent, randomBytes(12).toString('hex')), valid), 404, 'an agentIntegrationId that does not exist');
  expectErrorResponse(await api.patch(path, { integrationIdentifier: ids.slug('missing-integration') }), 404, 'an integrationIdentifier that names no integration');
});

conformance('AGI-03', 'a link of another agent is unknown under this agent and gets 404', async ({ api, provision }) => {
  const mine = await linkedAgent(provision);
  const theirs = await linkedAgent(provision);
  const res = await api.patch<LinkBody>(linkPath(mine.agent, theirs.link._id), { integrationIdentifier: mine.second.identifier });
  expectErrorResponse(res, 404, `the link ${theirs.link._id} of agent ${theirs.agent}, addressed under agent ${mine.agent}`);
});

conformance('AGI-04', 'the integration’s internal _id is not accepted as integrationIdentifier', async ({ api, provision, notVerified }) => {
  const { first, second, path } = await linkedAgent(provision);
  if ([first.identifier, second.identifier].includes(second._id)) return notVerified('the integration _id happens to equal an integration identifier');
  const res = await api.patch<LinkBody>(path, { integrationIdentifier: second._id });
  expect(res.status, `integrationIdentifier given as the integration _id ${second._id} (not an identifier) is rejected with 4xx, got ${res.status}`).toBeGreaterThanOrEqual(400);
  expect(res.status, 'the internal _id as integrationIdentifier is a client error (4xx), not a server error').toBeLessThan(500);
});

function expectNotConnected(value: unknown, where: string): void {
  expect(value === null || value === undefined, `${where}: connectedAt is null or absent until an inbound webhook is delivered, got ${JSON.stringify(value)}`).toBe(true);
}

conformance('AGI-05', 'connectedAt is empty on a link that never received an inbound webhook', async ({ api, provision }) => {
  const { second, link, path } = await linkedAgent(provision);
  expectNotConnected((link as LinkBody).connectedAt, 'the freshly created link');
  const res = await api.patch<LinkBody>(path, { integrationIdentifier: second.identifier });
  expect(res.status, 'the update of the fresh link succeeds').toBe(200);
  expectNotConnected(res.data.connectedAt, 'the updated link');
});

conformance('AGI-06', 'exceedsPlanLimit, where present, is a boolean', async ({ api, provision }) => {
  const { second, path } = await linkedAgent(provision);
  const res = await api.patch<LinkBody>(path, { integrationIdentifier: second.identifier });
  expect(res.status, 'the update succeeds').toBe(200);
  if (res.data.exceedsPlanLimit === undefined) return;
  expect(res.data.exceedsPlanLimit, 'exceedsPlanLimit is a boolean').toBeTypeOf('boolean');
});
