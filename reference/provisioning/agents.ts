// Provisioning-only operations of this area (provisioning.md), not among the spec's eight: the suite uses them to set
// up and remove state. Moved out of routes/agents.ts so that the mutation run can leave them out.
import type { RequestContext, RouteDef } from '../context.ts';
import { objectBody, ok } from '../context.ts';
import { FieldErrors, HttpError, notFound } from '../errors.ts';
import type { AgentLink, Integration } from '../store.ts';
import { SLUG_PATTERN, nowIso, objectId } from '../util.ts';
import { optBoolean, optEnum, optString, reqString } from '../validate.ts';
import { linkDto, resolveIntegration } from '../routes/agents.ts';

export const INTEGRATION_CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push', 'tool'] as const;

function integrationDto(ctx: RequestContext, i: Integration): Record<string, unknown> {
  return {
    _id: i._id,
    _environmentId: ctx.env._id,
    _organizationId: ctx.app.org._id,
    identifier: i.identifier,
    name: i.name,
    providerId: i.providerId,
    channel: i.channel,
    active: i.active,
    // required by the deployed contract: a listed integration is never deleted; the reference keeps no primary
    deleted: false,
    primary: false,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  };
}

function createIntegration(ctx: RequestContext) {
  const b = objectBody(ctx);
  const errs = new FieldErrors();
  const providerId = reqString(errs, b, 'providerId');
  const channel = optEnum(errs, b, 'channel', INTEGRATION_CHANNELS);
  if (b.channel === undefined) errs.add('channel', `channel must be one of the following values: ${INTEGRATION_CHANNELS.join(', ')}`);
  const name = optString(errs, b, 'name');
  const identifier = optString(errs, b, 'identifier');
  const active = optBoolean(errs, b, 'active');
  errs.throwIfAny();
  const env = ctx.env;
  const id = identifier ?? `${providerId}-${objectId().slice(-6)}`;
  if (env.findIntegrationByIdentifier(id)) throw new HttpError(409, `Integration with identifier "${id}" already exists`);
  const now = nowIso();
  const i: Integration = { _id: objectId(), identifier: id, name: name ?? providerId!, providerId: providerId!, channel: channel!, active: active ?? false, createdAt: now, updatedAt: now };
  env.integrations.set(i._id, i);
  return ok(201, integrationDto(ctx, i));
}

function deleteIntegration(ctx: RequestContext) {
  const env = ctx.env;
  const i = env.integrations.get(ctx.params.integrationId!);
  if (!i) throw notFound(`Integration "${ctx.params.integrationId}"`);
  env.integrations.delete(i._id);
  for (const [k, l] of env.links) if (l.integrationId === i._id) env.links.delete(k);
  return ok(200, [...env.integrations.values()].map((x) => integrationDto(ctx, x)));
}

function createAgent(ctx: RequestContext) {
  const b = objectBody(ctx);
  const errs = new FieldErrors();
  const name = reqString(errs, b, 'name');
  const identifier = reqString(errs, b, 'identifier');
  if (identifier !== undefined && !SLUG_PATTERN.test(identifier)) errs.add('identifier', 'identifier must be a valid slug format', identifier);
  const description = optString(errs, b, 'description');
  errs.throwIfAny();
  if (ctx.env.agents.has(identifier!)) throw new HttpError(409, `Agent "${identifier}" already exists`);
  const now = nowIso();
  const a = { _id: objectId(), identifier: identifier!, name: name!, ...(description !== undefined ? { description } : {}), createdAt: now, updatedAt: now };
  ctx.env.agents.set(a.identifier, a);
  // the deployed default behaviour (AgentBehaviorDto): acknowledge on receipt
  return ok(201, { ...a, behavior: { acknowledgeOnReceived: true }, active: true, _environmentId: ctx.env._id, _organizationId: ctx.app.org._id });
}

function deleteAgent(ctx: RequestContext) {
  const env = ctx.env;
  const a = env.agents.get(ctx.params.identifier!);
  if (!a) throw notFound(`Agent "${ctx.params.identifier}"`);
  env.agents.delete(a.identifier);
  for (const [k, l] of env.links) if (l._agentId === a._id) env.links.delete(k);
  return { status: 204 };
}

function linkIntegration(ctx: RequestContext) {
  const b = objectBody(ctx);
  const errs = new FieldErrors();
  const integrationIdentifier = reqString(errs, b, 'integrationIdentifier');
  errs.throwIfAny();
  const env = ctx.env;
  const agent = env.agents.get(ctx.params.identifier!);
  if (!agent) throw notFound(`Agent "${ctx.params.identifier}"`);
  const i = resolveIntegration(ctx, env, integrationIdentifier!);
  const now = nowIso();
  const link: AgentLink = {
    _id: objectId(),
    _agentId: agent._id,
    integrationId: i._id,
    createdAt: now,
    updatedAt: now,
    connectedAt: ctx.app.has('connected-at-set') ? now : null,
  };
  env.links.set(link._id, link);
  return ok(201, linkDto(ctx, link));
}

function listLinks(ctx: RequestContext) {
  const agent = ctx.env.agents.get(ctx.params.identifier!);
  if (!agent) throw notFound(`Agent "${ctx.params.identifier}"`);
  return ok(200, [...ctx.env.links.values()].filter((l) => l._agentId === agent._id).map((l) => linkDto(ctx, l)));
}

export function agentProvisioningRoutes(): RouteDef[] {
  return [
    { method: 'POST', path: '/v1/integrations', category: 'configuration', handler: createIntegration },
    { method: 'DELETE', path: '/v1/integrations/:integrationId', category: 'configuration', handler: deleteIntegration },
    { method: 'POST', path: '/v1/agents', category: 'configuration', handler: createAgent },
    { method: 'DELETE', path: '/v1/agents/:identifier', category: 'configuration', handler: deleteAgent },
    { method: 'POST', path: '/v1/agents/:identifier/integrations', category: 'configuration', handler: linkIntegration },
    { method: 'GET', path: '/v1/agents/:identifier/integrations', category: 'configuration', handler: listLinks },
  ];
}
