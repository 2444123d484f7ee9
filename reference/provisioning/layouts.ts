// Provisioning-only operations of this area (provisioning.md), not among the spec's eight: the suite uses them to set
// up and remove state. Moved out of routes/layouts.ts so that the mutation run can leave them out.
import type { RequestContext, RouteDef } from '../context.ts';
import { objectBody, ok } from '../context.ts';
import { FieldErrors, HttpError, notFound } from '../errors.ts';
import type { Layout } from '../store.ts';
import { SLUG_PATTERN, nowIso, objectId } from '../util.ts';
import { reqString } from '../validate.ts';
import { DEFAULT_BODY } from '../routes/layouts.ts';

function layoutDto(l: Layout): Record<string, unknown> {
  return {
    _id: l._id,
    layoutId: l.layoutId,
    slug: `${l.layoutId}_ly_${l._id.slice(-8)}`,
    name: l.name,
    isDefault: false,
    isTranslationEnabled: false,
    origin: 'novu-cloud',
    // the resource type of the deployed contract (REGULAR | ECHO | BRIDGE); the channel `email` is the preview's result.type
    type: 'REGULAR',
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
    controls: { values: { email: { body: DEFAULT_BODY, editorType: 'html' } }, dataSchema: controlSchema() },
  };
}

function controlSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      email: {
        type: 'object',
        properties: { body: { type: 'string' }, editorType: { type: 'string', enum: ['block', 'html'] } },
        required: ['body'],
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };
}

function createLayout(ctx: RequestContext) {
  const b = objectBody(ctx);
  const errs = new FieldErrors();
  const layoutId = reqString(errs, b, 'layoutId');
  if (layoutId !== undefined && !SLUG_PATTERN.test(layoutId)) errs.add('layoutId', 'layoutId must be a valid slug format', layoutId);
  const name = reqString(errs, b, 'name');
  errs.throwIfAny();
  if (ctx.env.layouts.has(layoutId!)) throw new HttpError(409, `Layout with id "${layoutId}" already exists`);
  const now = nowIso();
  const l: Layout = { _id: objectId(), layoutId: layoutId!, name: name!, createdAt: now, updatedAt: now };
  ctx.env.layouts.set(l.layoutId, l);
  return ok(201, layoutDto(l));
}

function deleteLayout(ctx: RequestContext) {
  if (!ctx.env.layouts.delete(ctx.params.layoutId!)) throw notFound(`Layout "${ctx.params.layoutId}"`);
  return { status: 204 };
}

function readLayout(ctx: RequestContext) {
  const l = ctx.env.layouts.get(ctx.params.layoutId!);
  if (!l) throw notFound(`Layout "${ctx.params.layoutId}"`);
  return ok(200, layoutDto(l));
}

export function layoutProvisioningRoutes(): RouteDef[] {
  return [
    { method: 'POST', path: '/v2/layouts', category: 'configuration', handler: createLayout },
    { method: 'GET', path: '/v2/layouts/:layoutId', category: 'configuration', handler: readLayout },
    { method: 'DELETE', path: '/v2/layouts/:layoutId', category: 'configuration', handler: deleteLayout },
  ];
}
