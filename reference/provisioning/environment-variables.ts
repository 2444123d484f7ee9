// Provisioning-only operations of this area (provisioning.md), not among the spec's eight: the suite uses them to set
// up and remove state. Moved out of routes/environment-variables.ts so that the mutation run can leave them out.
import type { RequestContext, RouteDef } from '../context.ts';
import { objectBody, ok } from '../context.ts';
import { FieldErrors, HttpError, notFound } from '../errors.ts';
import type { EnvironmentVariable } from '../store.ts';
import { isPlainObject, nowIso, objectId } from '../util.ts';
import { optBoolean, optEnum, reqString } from '../validate.ts';
import { SECRET_MASK, variableDto } from '../routes/environment-variables.ts';

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

export function environmentVariableProvisioningRoutes(): RouteDef[] {
  return [
    { method: 'POST', path: '/v1/environment-variables', category: 'configuration', handler: create },
    { method: 'DELETE', path: '/v1/environment-variables/:variableKey', category: 'configuration', handler: remove },
  ];
}
