// GET /v1/environment-variables: organization-level variables, search and masking. Create and delete are
// provisioning-only: provisioning/environment-variables.ts.
import type { App, RequestContext, RouteDef } from '../context.ts';
import { ok } from '../context.ts';
import { FieldErrors } from '../errors.ts';
import type { EnvironmentVariable } from '../store.ts';

export const SECRET_MASK = '\u2022'.repeat(8);
export const MAX_SEARCH_LENGTH = 256;

function maskValue(app: App, v: EnvironmentVariable, value: string, ownEnvironment: boolean): string {
  if (v.isSecret) {
    if (app.has('unmasked-secrets') || (app.has('other-environment-secrets-unmasked') && !ownEnvironment)) return value;
    if (app.has('secret-mask-base64')) return Buffer.from(value).toString('base64');
    if (app.has('secret-mask-contains-plaintext')) return '\u2022'.repeat(4) + value;
    return SECRET_MASK;
  }
  return app.has('non-secret-masked') ? SECRET_MASK : value;
}

export function variableDto(ctx: RequestContext, v: EnvironmentVariable): Record<string, unknown> {
  const { app } = ctx;
  const values = app.has('env-var-values-single-env') ? v.values.filter((x) => x._environmentId === ctx.auth.envId) : v.values;
  return {
    _id: v._id,
    _organizationId: app.org._id,
    key: v.key,
    type: v.type,
    isSecret: v.isSecret,
    values: values.map((x) => ({ _environmentId: x._environmentId, value: maskValue(app, v, x.value, x._environmentId === ctx.auth.envId) })),
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function list(ctx: RequestContext) {
  const { app } = ctx;
  const search = ctx.query.get('search');
  if (search !== null) {
    const max = app.has('search-limit-off-by-one') ? MAX_SEARCH_LENGTH - 1 : MAX_SEARCH_LENGTH;
    // why: characters, not UTF-16 units (an emoji is one character), as JSON Schema and the deployed validator count
    const length = app.has('search-length-in-bytes') ? Buffer.byteLength(search) : [...search].length;
    if (length > max && !app.has('search-length-unchecked')) {
      const errs = new FieldErrors();
      errs.add('search', `search must be shorter than or equal to ${MAX_SEARCH_LENGTH} characters`, search);
      errs.throwIfAny();
    }
  }
  let vars = [...app.org.environmentVariables.values()];
  if (search) {
    if (app.has('search-regex-unescaped')) {
      const re = new RegExp(search, 'i'); // fault: invalid patterns throw → 500
      vars = vars.filter((v) => re.test(v.key));
    } else {
      const prefix = app.has('search-prefix-only');
      const re = new RegExp((prefix ? '^' : '') + escapeRegExp(search), app.has('search-case-sensitive') ? '' : 'i');
      // fault `search-matches-values`: the filter also looks at the values
      vars = vars.filter((v) => re.test(v.key) || (app.has('search-matches-values') && v.values.some((x) => re.test(x.value))));
    }
  }
  const dtos = vars.map((v) => variableDto(ctx, v));
  return ok(200, app.has('env-var-list-not-array') ? Object.fromEntries(dtos.map((d) => [d.key as string, d])) : dtos);
}

export function environmentVariableRoutes(): RouteDef[] {
  return [
    { method: 'GET', path: '/v1/environment-variables', category: 'configuration', handler: list },
  ];
}
