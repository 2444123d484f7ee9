// POST /v2/workflows, GET|DELETE /v2/workflows/{id}: workflow create, read, delete.
import type { App, RequestContext, RouteDef } from '../context.ts';
import { objectBody, ok } from '../context.ts';
import { FieldErrors, HttpError } from '../errors.ts';
import { compilePayloadSchema, exampleFromSchema } from '../payload-schema.ts';
import type { Step, Workflow } from '../store.ts';
import { SLUG_PATTERN, isPlainObject, nowIso, objectId, shortId, slugify } from '../util.ts';
import { optBoolean, optEnum, optObject, optString } from '../validate.ts';

export const STEP_TYPES = ['in_app', 'email', 'sms', 'push', 'chat', 'delay', 'digest', 'throttle', 'tool', 'custom', 'http_request'] as const;
export const SEVERITIES = ['high', 'medium', 'low', 'none'] as const;
export const SOURCES = [
  'template_store', 'editor', 'notification_directory', 'onboarding_digest_demo', 'onboarding_in_app', 'empty_state',
  'dropdown', 'onboarding_get_started', 'bridge', 'dashboard', 'ai',
] as const;
const PREF_CHANNELS = ['email', 'sms', 'in_app', 'chat', 'push'] as const;

function validatePreferenceBlock(app: App, errs: FieldErrors, v: unknown, field: string): void {
  // CLIENT-04: the official client's models make both blocks nullable, and a workflow read back carries `user: null`
  if (v === undefined || (v === null && !app.has('nullable-preferences-refused'))) return;
  if (!isPlainObject(v)) return errs.add(field, `${field} must be an object`, v);
  if (v.all !== undefined) {
    if (!isPlainObject(v.all)) errs.add(`${field}.all`, 'all must be an object', v.all);
    else if (!app.has('preference-flags-unchecked')) {
      optBoolean(errs, v.all, 'enabled', `${field}.all.`);
      optBoolean(errs, v.all, 'readOnly', `${field}.all.`);
    }
  }
  if (v.channels !== undefined) {
    if (!isPlainObject(v.channels)) return errs.add(`${field}.channels`, 'channels must be an object', v.channels);
    for (const [ch, setting] of Object.entries(v.channels)) {
      if (app.has('workflow-preferences-channels-limited') && !['email', 'sms', 'in_app'].includes(ch)) errs.add(`${field}.channels.${ch}`, `${ch} is not a channel`, setting);
      else if (!isPlainObject(setting)) errs.add(`${field}.channels.${ch}`, `${ch} must be an object`, setting);
      else optBoolean(errs, setting, 'enabled', `${field}.channels.${ch}.`);
    }
  }
}

// Only the fault `partial-preferences-rejected` asks for it: the request shape makes every part optional.
const isCompletePreferences = (p: Record<string, unknown>) =>
  [p.user, p.workflow].every((b) => isPlainObject(b) && b.all !== undefined);

function defaultPreferenceBlock(): Record<string, unknown> {
  const channels: Record<string, { enabled: boolean }> = {};
  for (const c of PREF_CHANNELS) channels[c] = { enabled: true };
  return { all: { enabled: true, readOnly: false }, channels };
}

/** Workflow preferences response: the user block (or null) and the effective default. */
function preferencesResponse(app: App, req: Record<string, unknown> | undefined): Record<string, unknown> {
  const def = defaultPreferenceBlock();
  const wfBlock = req?.workflow;
  if (isPlainObject(wfBlock)) {
    if (isPlainObject(wfBlock.all)) Object.assign(def.all as object, wfBlock.all);
    if (isPlainObject(wfBlock.channels) || app.has('workflow-preferences-without-channels-crash')) {
      // the fault reads a missing `channels` as if it were there: Object.entries(undefined) throws (500)
      for (const [ch, s] of Object.entries(wfBlock.channels as Record<string, unknown>)) {
        (def.channels as Record<string, unknown>)[ch] = { enabled: true, ...(isPlainObject(s) ? s : {}) };
      }
    }
  }
  return { user: app.has('user-preferences-channels-dropped') && isPlainObject(req?.user) ? req.user : userBlock(req?.user), default: def };
}

/** The user block as the deployed contract returns it: `all` and `channels` are always there (the official SDK requires both). */
function userBlock(user: unknown): Record<string, unknown> | null {
  if (!isPlainObject(user)) return null;
  return { ...user, all: isPlainObject(user.all) ? user.all : { enabled: true, readOnly: false }, channels: isPlainObject(user.channels) ? user.channels : {} };
}

function parseSteps(app: App, errs: FieldErrors, raw: unknown[]): Step[] {
  const steps: Step[] = [];
  const seen = new Set<string>();
  const given = new Set(raw.map((s) => (isPlainObject(s) ? s.stepId : undefined)).filter((id): id is string => typeof id === 'string'));
  raw.forEach((s, i) => {
    const f = `steps[${i}]`;
    if (!isPlainObject(s)) return errs.add(f, 'each step must be an object', s);
    let name = optString(errs, s, 'name', `${f}.`);
    if (name === undefined || (name === '' && !app.has('empty-step-name-accepted'))) {
      if (app.has('step-name-optional')) name = typeof s.type === 'string' ? s.type : 'step';
      else if (s.name === undefined || s.name === '') errs.add(`${f}.name`, 'name should not be empty', s.name);
    }
    const type = s.type;
    const typeOk =
      typeof type === 'string' &&
      (STEP_TYPES as readonly string[]).includes(type) &&
      !(type === 'http_request' && app.has('http-request-step-rejected'));
    if (!typeOk && !(app.has('unknown-step-type-accepted') && typeof type === 'string')) {
      errs.add(`${f}.type`, `type must be one of the following values: ${STEP_TYPES.join(', ')}`, type);
    }
    let stepId = optString(errs, s, 'stepId', `${f}.`);
    if (stepId !== undefined && !SLUG_PATTERN.test(stepId) && !app.has('step-id-pattern-unchecked')) {
      errs.add(`${f}.stepId`, 'stepId must be a valid slug format (letters, numbers, hyphens, dot and underscores only)', stepId);
    }
    const _id = optString(errs, s, '_id', `${f}.`);
    const controlValues = optObject(errs, s, 'controlValues', `${f}.`);
    if (name === undefined || typeof type !== 'string') return;
    // why: fault `duplicate-step-id-accepted` forgets the stepIds of the steps before, so a repeated one passes
    if (app.has('duplicate-step-id-accepted')) seen.clear();
    if (stepId !== undefined && seen.has(stepId)) errs.add(`${f}.stepId`, `stepId "${stepId}" is used by another step`, stepId);
    // why: a derived stepId must not collide with another step's, given or derived
    const derived = app.has('derived-step-id-unslugged') ? name.toLowerCase().replace(/[^a-z0-9]/g, '-') : app.has('derived-step-id-empty') && !/[a-z0-9]/i.test(name) ? '' : slugify(name);
    // why: fault `given-step-id-replaced` keeps the derived stepId even where the request gave one
    if (app.has('given-step-id-replaced') && stepId !== undefined && !seen.has(derived)) stepId = derived;
    stepId ??= app.has('derived-step-id-not-unique') ? derived : uniqueSlug(derived, new Set([...given, ...seen]));
    seen.add(stepId);
    steps.push({ _id: _id ?? objectId(), stepId, slug: app.has('step-slug-empty') ? '' : `${stepId}_st_${shortId(8)}`, name, type, ...(controlValues ? { controlValues } : {}) });
  });
  return steps;
}

function uniqueSlug(base: string, taken: Set<string>): string {
  let candidate = base;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base}-${n}`;
  return candidate;
}

function createWorkflow(ctx: RequestContext) {
  const { app, env } = ctx;
  const b = objectBody(ctx);
  const errs = new FieldErrors();

  let name = app.has('non-string-name-echoed') && b.name !== undefined ? (b.name as string) : optString(errs, b, 'name');
  if (name === undefined && b.name === undefined && !app.has('missing-name-accepted')) errs.add('name', 'name should not be empty');
  const workflowId = optString(errs, b, 'workflowId');
  if (b.workflowId === undefined) errs.add('workflowId', 'workflowId should not be empty');
  else if (workflowId !== undefined && !SLUG_PATTERN.test(workflowId) && !app.has('slug-pattern-unchecked')) {
    errs.add('workflowId', 'workflowId must be a valid slug format (letters, numbers, hyphens, dot and underscores only)', workflowId);
  }
  let rawSteps: unknown[] = [];
  if (b.steps === undefined) {
    if (!app.has('missing-steps-accepted')) errs.add('steps', 'steps must be an array');
  } else if (!Array.isArray(b.steps)) errs.add('steps', 'steps must be an array', b.steps);
  else rawSteps = b.steps;
  if (Array.isArray(b.steps) && b.steps.length === 0 && app.has('empty-steps-rejected')) errs.add('steps', 'steps should not be empty', b.steps);
  const steps = parseSteps(app, errs, rawSteps);

  const description = optString(errs, b, 'description');
  let tags: string[] = app.has('tags-default-not-empty') ? ['untagged'] : [];
  if (b.tags !== undefined) {
    if ((!Array.isArray(b.tags) || !b.tags.every((t) => typeof t === 'string')) && !app.has('tag-values-unchecked')) errs.add('tags', 'each value in tags must be a string', b.tags);
    else tags = b.tags as string[];
  }
  const active = app.has('non-boolean-active-echoed') && b.active !== undefined ? (b.active as boolean) : optBoolean(errs, b, 'active');
  const validatePayload = optBoolean(errs, b, 'validatePayload');
  const isTranslationEnabled = optBoolean(errs, b, 'isTranslationEnabled');
  let payloadSchema: Record<string, unknown> | null = null;
  if (b.payloadSchema !== undefined && (b.payloadSchema !== null || app.has('null-payload-schema-rejected'))) {
    if (!isPlainObject(b.payloadSchema)) errs.add('payloadSchema', 'payloadSchema must be an object', b.payloadSchema);
    else payloadSchema = b.payloadSchema;
  }
  let agent: Record<string, unknown> | null = null;
  if (b.agent !== undefined && b.agent !== null) {
    if (!isPlainObject(b.agent)) errs.add('agent', 'agent must be an object', b.agent);
    else {
      const identifier = optString(errs, b.agent, 'identifier', 'agent.');
      if (identifier === undefined && b.agent.identifier === undefined) errs.add('agent.identifier', 'identifier should not be empty');
      else if (identifier !== undefined && !SLUG_PATTERN.test(identifier) && !app.has('agent-identifier-pattern-unchecked')) errs.add('agent.identifier', 'identifier must be a valid slug format', identifier);
      const providers = optObject(errs, b.agent, 'providers', 'agent.');
      if (providers || app.has('agent-without-providers-crash')) {
        // the fault reads a missing `providers` as if it were there: Object.entries(undefined) throws (500)
        for (const [pid, cfg] of Object.entries(providers as Record<string, unknown>)) {
          if (!isPlainObject(cfg)) errs.add(`agent.providers.${pid}`, `${pid} must be an object`, cfg);
          else optString(errs, cfg, 'replyTo', `agent.providers.${pid}.`);
        }
      }
      if (identifier !== undefined) {
        agent = { identifier };
        if (providers && !app.has('agent-providers-dropped')) agent.providers = providers;
      }
    }
  }
  const source = optEnum(errs, b, '__source', SOURCES);
  const prefs = optObject(errs, b, 'preferences');
  if (prefs) {
    validatePreferenceBlock(app, errs, prefs.user, 'preferences.user');
    validatePreferenceBlock(app, errs, prefs.workflow, 'preferences.workflow');
    if (app.has('partial-preferences-rejected') && !isCompletePreferences(prefs)) errs.add('preferences', 'preferences must carry user and workflow, each with all');
  }
  const sentSeverity = (app.has('severity-enum-unchecked') && typeof b.severity === 'string' ? (b.severity as (typeof SEVERITIES)[number]) : optEnum(errs, b, 'severity', SEVERITIES)) ?? (app.has('severity-default-high') ? 'high' : 'none');
  // why: fault `severity-low-dropped` maps the severities through a table that lacks `low`
  const severity = app.has('severity-low-dropped') && sentSeverity === 'low' ? 'none' : sentSeverity;
  let validator;
  if (payloadSchema) {
    if (app.has('payload-schema-vendor-keyword-rejected') && Object.keys(payloadSchema).some((k) => k.startsWith('x-'))) errs.add('payloadSchema', 'payloadSchema is not a valid JSON Schema: strict mode: unknown keyword');
    const compiled = compilePayloadSchema(payloadSchema);
    if (typeof compiled === 'string' && !app.has('invalid-payload-schema-accepted')) errs.add('payloadSchema', `payloadSchema is not a valid JSON Schema: ${compiled}`);
    else validator = compiled as Exclude<typeof compiled, string>;
  }
  errs.throwIfAny();
  if (app.has('long-step-name-crash') && steps.some((s) => s.name.length > 120)) throw new Error('step name longer than its column');
  if (app.has('payload-example-bare-subschema-crash') && payloadSchema && (!isPlainObject(payloadSchema.properties) || Object.values(payloadSchema.properties).some((v) => !isPlainObject(v) || (v.type === 'object' && !('properties' in v))))) throw new Error('payloadExample: a schema without properties');
  const wfId = app.has('workflow-id-lower-cased') ? workflowId!.toLowerCase() : workflowId!;
  name ??= wfId;
  // WF-09: a second workflow with the same workflowId is refused and the first stays untouched
  if (env.workflowsByKey.has(wfId)) throw new HttpError(409, `Workflow with id "${wfId}" already exists`);

  const now = app.has('timestamps-not-iso') ? String(Date.now()) : stampNow(app);
  const wf: Workflow = {
    _id: objectId(),
    workflowId: wfId,
    slug: `${wfId}_wf_${shortId(10)}`,
    name,
    ...(description !== undefined ? { description } : {}),
    tags,
    active: active ?? app.has('active-defaults-true'),
    ...(validatePayload !== undefined ? { validatePayload } : {}),
    payloadSchema,
    isTranslationEnabled: app.has('translation-flag-ignored') ? false : (isTranslationEnabled ?? app.has('translation-defaults-true')),
    agent: app.has('agent-dropped') ? null : agent,
    ...(source !== undefined ? { source } : {}),
    preferences: preferencesResponse(app, prefs),
    severity,
    steps: app.has('step-order-reversed') ? [...steps].reverse() : steps,
    createdAt: now,
    updatedAt: now,
    lastTriggeredAt: null,
    payloadExample: payloadSchema ? (exampleFromSchema(payloadSchema) as Record<string, unknown>) : null,
    ...(validator ? { validator } : {}),
    runs: 0,
  };
  env.addWorkflow(wf);
  return ok(app.has('workflow-create-200') ? 200 : 201, workflowDto(app, wf));
}

/** The current time as the reference writes it: ISO-8601, or the RFC 1123 form a fault puts in its place. */
export function stampNow(app: Pick<App, 'has'>): string {
  return app.has('timestamps-rfc1123') ? new Date().toUTCString() : nowIso();
}

/** WorkflowResponseDto. */
export function workflowDto(app: App, wf: Workflow): Record<string, unknown> {
  const dto: Record<string, unknown> = {
    _id: wf._id,
    workflowId: wf.workflowId,
    slug: wf.slug,
    name: wf.name,
    description: app.has('workflow-fields-not-echoed') ? undefined : wf.description,
    tags: app.has('workflow-fields-not-echoed') ? [] : wf.tags,
    active: wf.active,
    validatePayload: wf.validatePayload,
    payloadSchema: wf.payloadSchema,
    isTranslationEnabled: wf.isTranslationEnabled,
    agent: wf.agent,
    preferences: wf.preferences,
    severity: wf.severity,
    steps: wf.steps.map((s) => stepDto(app, wf, s)),
    createdAt: wf.createdAt,
    updatedAt: wf.updatedAt,
    updatedBy: null,
    lastPublishedAt: null,
    lastPublishedBy: null,
    origin: workflowOrigin(app),
    status: app.has('workflow-status-lower-case') ? (wf.active ? 'active' : 'inactive') : wf.active ? 'ACTIVE' : 'INACTIVE',
    issues: {},
    lastTriggeredAt: wf.lastTriggeredAt,
    payloadExample: wf.payloadExample,
  };
  if (app.has('workflow-response-missing-slug')) delete dto.slug;
  if (app.has('agent-missing-when-unassigned') && wf.agent === null) delete dto.agent;
  if (app.has('source-echoed') && wf.source !== undefined) dto.__source = wf.source;
  if (app.has('preferences-dropped')) delete dto.preferences;
  if (app.has('falsy-fields-dropped')) for (const f of ['description', 'validatePayload', 'tags', 'payloadSchema']) if (isFalsyOrEmpty(dto[f])) delete dto[f];
  if (app.has('empty-objects-null') && isPlainObject(dto.payloadSchema) && Object.keys(dto.payloadSchema).length === 0) dto.payloadSchema = null;
  if (app.has('agent-empty-providers-null') && isPlainObject(wf.agent) && isFalsyOrEmpty(wf.agent.providers)) dto.agent = null;
  return dto;
}

// A serializer that drops falsy optional fields (fault `falsy-fields-dropped`) treats these as "not set".
const isFalsyOrEmpty = (v: unknown) => !v || (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0);

const workflowOrigin = (app: App) => (app.has('bad-origin-enum') ? 'cloud' : 'novu-cloud');

// Control values a step type cannot do without in the deployed contract (the official SDK requires them).
const DEFAULT_CONTROL_VALUES: Partial<Record<string, Record<string, unknown>>> = {
  email: { subject: '', body: '' },
  http_request: { method: 'POST', url: '' },
};

/** A step of the workflow response, with the fields the deployed contract requires of every step type. */
function stepDto(app: App, wf: Workflow, s: Step): Record<string, unknown> {
  const values = { ...DEFAULT_CONTROL_VALUES[s.type], ...s.controlValues };
  const dto: Record<string, unknown> = {
    _id: s._id,
    stepId: s.stepId,
    slug: s.slug,
    name: s.name,
    type: s.type,
    controls: { values },
    controlValues: values,
    variables: {},
    origin: workflowOrigin(app),
    workflowId: wf.workflowId,
    workflowDatabaseId: app.has('step-database-id-mistyped') ? Number.parseInt(wf._id.slice(-8), 16) : wf._id,
  };
  if (app.has('step-origin-missing')) delete dto.origin;
  return dto;
}

export function workflowRoutes(app: App): RouteDef[] {
  return [
    { method: 'POST', path: app.has('workflows-under-v1') ? '/v1/workflows' : '/v2/workflows', category: 'configuration', handler: createWorkflow },
  ];
}
