// PATCH /v1/agents/{identifier}/integrations/{agentIntegrationId}: update an agent's integration link (AGI). Creating
// integrations, agents and links is provisioning-only: provisioning/agents.ts.
import type { RequestContext, RouteDef } from '../context.ts';
import { objectBody, ok } from '../context.ts';
import { FieldErrors, notFound } from '../errors.ts';
import type { AgentLink, EnvironmentState, Integration } from '../store.ts';
import { nowIso } from '../util.ts';
import { reqString } from '../validate.ts';

export function linkDto(ctx: RequestContext, link: AgentLink): Record<string, unknown> {
  const i = ctx.env.integrations.get(link.integrationId);
  return {
    _id: link._id,
    _agentId: link._agentId,
    integration: i
      ? { _id: i._id, identifier: i.identifier, name: i.name, providerId: i.providerId, active: i.active, channel: i.channel }
      : { _id: link.integrationId, identifier: '', name: '', providerId: '', active: false, channel: 'in_app' },
    _environmentId: ctx.env._id,
    _organizationId: ctx.app.org._id,
    createdAt: link.createdAt,
    updatedAt: link.updatedAt,
    connectedAt: link.connectedAt,
    // AGI-06: always a boolean
    exceedsPlanLimit: false,
  };
}

/** The integration named by `integrationIdentifier` (its public identifier, never its _id). */
export function resolveIntegration(ctx: RequestContext, env: EnvironmentState, identifier: string): Integration {
  const byIdentifier = env.findIntegrationByIdentifier(identifier);
  if (byIdentifier) return byIdentifier;
  if (ctx.app.has('agi-internal-id-accepted')) {
    const byId = env.integrations.get(identifier);
    if (byId) return byId;
  }
  throw notFound(`Integration with identifier "${identifier}"`);
}

function updateLink(ctx: RequestContext) {
  const { app, env } = ctx;
  const b = objectBody(ctx);
  const errs = new FieldErrors();
  const integrationIdentifier = reqString(errs, b, 'integrationIdentifier');
  const lenient = app.has('agi-missing-identifier-accepted');
  if (!lenient) errs.throwIfAny();
  const agent = env.agents.get(ctx.params.identifier!);
  if (!agent) throw notFound(`Agent "${ctx.params.identifier}"`);
  const link = env.links.get(ctx.params.agentIntegrationId!);
  // AGI-03: an unknown agent, link or integration identifier gets 404
  if (!link || (link._agentId !== agent._id && !app.has('agi-foreign-link-accepted'))) throw notFound(`Agent integration "${ctx.params.agentIntegrationId}"`);
  if (integrationIdentifier === undefined) return ok(200, linkDto(ctx, link));
  const i = resolveIntegration(ctx, env, integrationIdentifier);
  if (!app.has('agi-wrong-integration')) link.integrationId = i._id;
  link.updatedAt = nowIso();
  return ok(200, linkDto(ctx, link));
}

export function agentRoutes(): RouteDef[] {
  return [
    { method: 'PATCH', path: '/v1/agents/:identifier/integrations/:agentIntegrationId', category: 'configuration', handler: updateLink },
  ];
}
