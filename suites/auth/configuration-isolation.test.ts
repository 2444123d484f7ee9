import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { settle } from '../../harness/eventually.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';

// AUTH-05 on the configuration resources the suite creates (layouts, integrations, agents and their integration
// links): another environment's key neither finds them nor changes or deletes them; the owner checks afterwards.
const other = { as: 'secondary' as const };
const needs = { needs: ['secondaryKey'] as const };
const enc = encodeURIComponent;

/** `secrets`: values of the resource that the request itself does not name (so an error message cannot echo them). */
function expectRefused(res: ApiResponse, secrets: (string | undefined)[], what: string): void {
  expect(res.status, `${what} with another environment's key must not find the resource (expected 404), got ${res.status}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what} with another environment's key: a 5xx is never an answer`).toBeLessThan(500);
  for (const secret of secrets) {
    if (secret) expect(res.text.includes(secret), `${what} with another environment's key must not reveal the resource ("${secret}" appears in the body)`).toBe(false);
  }
}

interface LinkRead {
  _id: string;
  integration?: { identifier?: string };
}

conformance('AUTH-05', "a layout is invisible to, and survives deletion by, another environment's key", async ({ api, provision, target }) => {
  const { layoutId } = await provision.layout();
  const preview = (as?: typeof other) => api.post(`/v2/layouts/${enc(layoutId)}/preview`, { controlValues: {}, previewPayload: { subscriber: { firstName: 'Conformance' } } }, as);
  expectRefused(await preview(other), [], 'POST /v2/layouts/{layoutId}/preview');
  expectRefused(await api.get(`/v2/layouts/${enc(layoutId)}`, other), [], 'GET /v2/layouts/{layoutId}');
  await api.delete(`/v2/layouts/${enc(layoutId)}`, other);
  await settle(target.timeouts.settleMs); // an asynchronous target applies a wrongly accepted delete later
  const read = await preview();
  expect(read.status, "the owner still previews its layout after a DELETE sent with another environment's key").toBeGreaterThanOrEqual(200);
  expect(read.status, "the owner still previews its layout after a DELETE sent with another environment's key").toBeLessThan(300);
}, needs);

conformance('AUTH-05', "an integration cannot be linked, found or deleted with another environment's key", async ({ api, provision, target }) => {
  const integration = await provision.integration();
  const foreignAgent = await provision.withIdentity('secondary').agent();
  for (const name of [integration.identifier, integration._id]) {
    const res = await api.post(`/v1/agents/${enc(foreignAgent.identifier)}/integrations`, { integrationIdentifier: name }, other);
    expectRefused(res, [integration.name as string | undefined], "linking another environment's agent to the integration");
  }
  await api.delete(`/v1/integrations/${enc(integration._id)}`, other);
  await settle(target.timeouts.settleMs);
  const agent = await provision.agent();
  const link = await provision.agentLink(agent.identifier, integration.identifier);
  expect(typeof link._id, "the owner still links an agent to its integration after a DELETE sent with another environment's key").toBe('string');
}, needs);

conformance('AUTH-05', "an agent's integration link is invisible to, and unchanged by, another environment's key", async ({ api, provision, target, notVerified }) => {
  const { agent, link, linked, other: spare } = await provision.linkedAgent();
  const foreign = await provision.withIdentity('secondary').integration();
  const linksPath = `/v1/agents/${enc(agent)}/integrations`;
  expectRefused(await api.get(linksPath, other), [link._id, linked.identifier], 'GET /v1/agents/{identifier}/integrations');
  for (const integrationIdentifier of [spare.identifier, foreign.identifier]) {
    const res = await api.patch(`${linksPath}/${enc(link._id)}`, { integrationIdentifier }, other);
    expectRefused(res, [linked.identifier, linked._id], 'PATCH /v1/agents/{identifier}/integrations/{agentIntegrationId}');
  }
  await api.delete(`/v1/agents/${enc(agent)}`, other);
  await settle(target.timeouts.settleMs);
  const links = await api.get(linksPath);
  if (links.status !== 200 || !Array.isArray(links.data)) return notVerified(`the link cannot be read back (GET /v1/agents/{identifier}/integrations → ${links.status})`);
  const current = (links.data as LinkRead[]).find((l) => l._id === link._id);
  expect(current, "the agent and its link must survive a DELETE sent with another environment's key").toBeDefined();
  expect(current?.integration?.identifier, "a PATCH sent with another environment's key must not re-point the link").toBe(linked.identifier);
}, needs);
