// GET /v1/environments: both environments of the organization; API keys only on the caller's own.
import type { RequestContext, RouteDef } from '../context.ts';
import { ok } from '../context.ts';
import type { EnvironmentState } from '../store.ts';
import { objectId } from '../util.ts';

function list(ctx: RequestContext) {
  const { app, auth } = ctx;
  const org = app.org;
  const leak = app.has('api-keys-leaked');
  const dto = (e: EnvironmentState) => {
    const d: Record<string, unknown> = {
      _id: e._id,
      name: e.name,
      _organizationId: org._id,
      identifier: e.identifier,
      type: e.type === 'prod' && app.has('environment-bad-type') ? 'production' : e.type,
      slug: e.slug,
      ...(e._parentId ? { _parentId: e._parentId } : {}),
    };
    const own = e._id === auth.envId && !auth.restricted;
    if (own || leak) {
      d.apiKeys = [...org.apiKeys.values()]
        .filter((k) => k.envId === e._id && (leak || !k.restricted))
        .map((k) => ({ key: k.key, _userId: k.userId, hash: k.hash }));
    }
    return d;
  };
  let envs = org.environments;
  if (app.has('own-environment-missing')) envs = envs.filter((e) => e._id !== auth.envId);
  if (app.has('other-environments-unlisted')) envs = envs.filter((e) => e._id === auth.envId);
  const out = envs.map(dto);
  if (app.has('foreign-organization-listed')) {
    out.push({ _id: objectId(), name: 'Staging', _organizationId: objectId(), identifier: 'foreign', type: 'dev', slug: 'staging' });
  }
  return ok(200, out);
}

export function environmentRoutes(): RouteDef[] {
  return [{ method: 'GET', path: '/v1/environments', category: 'global', handler: list }];
}
