// Organization-level environment variables: list (search, masking), create, delete.
import type { App, RequestContext, RouteDef } from '../context.ts';
import { objectBody, ok } from '../context.ts';
import { FieldErrors, HttpError, notFound } from '../errors.ts';
import type { EnvironmentVariable } from '../store.ts';
import { isPlainObject, nowIso, objectId } from '../util.ts';
import { optBoolean, optEnum, reqString } from '../validate.ts';

export const SECRET_MASK = '\u2022'.repeat(8);
export const MAX_SEARCH_LENGTH = 256;

function maskValue(app: App, v: EnvironmentVariable, value: string): string {
  if (v.isSecret) {
    if (app.has('unmasked-secrets')) return value;
    if (app.has('secret-mask-contains-plaintext')) return '\u2022'.repeat(4) + value;
    return SECRET_MASK;
  }
  return app.has('non-secret-masked') ? SECRET_MASK : value;
}

function variableDto(ctx: RequestContext, v: EnvironmentVariable): Record<string, unknown> {
  const { app } = ctx;
  const values = app.has('env-var-values-single-env') ? v.values.filter((x) => x._environmentId === ctx.auth.envId) : v.values;
  return {
    _id: v._id,
    _organizationId: app.org._id,
    key: v.key,
    type: v.type,
    isSecret: v.isSecret,
    values: values.map((x) => ({ _environmentId: x._environmentId, value: maskValue(app, v, x.value) })),
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
    if ([...search].length > max && !app.has('search-length-unchecked')) {
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
      vars = vars.filter((v) => re.test(v.key));
    }
  }
  const dtos = vars.map((v) => variableDto(ctx, v));
  return ok(200, app.has('env-var-list-not-array') ? Object.fromEntries(dtos.map((d) => [d.key as string, d])) : dtos);
}

function create(ctx: RequestContext) {
  const { app } = ctx;
  const b = objectBody(ctx);
  const errs = new FieldErrors();
  const key = reqString(errs, b, 'key');
  optEnum(errs, b, 'type', ['string'] as const);
  const isSecret = optBoolean(errs, b, 'isSecret') ?? false;
  const envIds = new Set(app.org.environments.map((e) => e._id));
  const values: { _environmentId: string; value: string }[] = [];
  if (b.values !== undefined) {
    if (!Array.isArray(b.values)) errs.add('values', 'values must be an array', b.values);
    else
      b.values.forEach((x, i) => {
        if (!isPlainObject(x) || typeof x._environmentId !== 'string' || typeof x.value !== 'string') {
          return errs.add(`values[${i}]`, 'each value must be {_environmentId: string, value: string}', x);
        }
        if (!envIds.has(x._environmentId)) return errs.add(`values[${i}]._environmentId`, 'unknown environment', x._environmentId);
        values.push({ _environmentId: x._environmentId, value: x.value });
      });
  }
  errs.throwIfAny();
  if (values.some((v) => v.value === SECRET_MASK)) throw new HttpError(400, 'The masked value cannot be stored as a variable value');
  if (app.org.environmentVariables.has(key!)) throw new HttpError(409, `Environment variable "${key}" already exists`);
  const now = nowIso();
  const v: EnvironmentVariable = { _id: objectId(), key: key!, type: 'string', isSecret, values, createdAt: now, updatedAt: now };
  app.org.environmentVariables.set(v.key, v);
  return ok(200, variableDto(ctx, v));
}

function remove(ctx: RequestContext) {
  if (!ctx.app.org.environmentVariables.delete(ctx.params.variableKey!)) throw notFound(`Environment variable "${ctx.params.variableKey}"`);
  return { status: 204 };
}

export function environmentVariableRoutes(): RouteDef[] {
  return [
    { method: 'GET', path: '/v1/environment-variables', category: 'configuration', handler: list },
    { method: 'POST', path: '/v1/environment-variables', category: 'configuration', handler: create },
    { method: 'DELETE', path: '/v1/environment-variables/:variableKey', category: 'configuration', handler: remove },
  ];
}
