// The eight operations as fuzz targets: the request schema their bodies come from, what each provisions first,
// which body fields are bound to that state, which 4xx a VALID request may get because a rule says so, and which
// rule demands that a field broken in a given way is rejected.
import type { RuleId } from '../requirements/index.ts';
import { RULE_OF_OPERATION } from '../harness/checks/schema-checks.ts';
import type { ApiResponse } from '../harness/http/api-client.ts';
import type { ApiClient } from '../harness/http/api-client.ts';
import type { Cleanup } from '../harness/conformance/cleanup.ts';
import { OPERATIONS, type Operation } from '../harness/operations.ts';
import type { Provisioner } from '../fixtures/provision.ts';
import type { SchemaName } from '../schemas/names.ts';
import { ROUTES } from '../schemas/route-map.ts';
import type { JsonSchema } from '../schemas/schema-files.ts';
import { pick, rewriteAt } from './bind.ts';
import type { Violation } from './generate/invalid.ts';

export interface FuzzContext {
  api: ApiClient;
  provision: Provisioner;
  cleanup: Cleanup;
  runPrefix: string;
  /** A run-prefixed subscriber id standing for a generated one, from a bounded pool removed at the end. */
  subscriberFor(generated: string): string;
  /** A fresh run-prefixed slug, e.g. for a workflowId. */
  unique(label: string): string;
}

/** What is sent: the body and query after binding. */
export interface SentRequest {
  method: Operation['method'];
  path: string;
  body?: unknown;
  query?: Record<string, string>;
}

export interface Rejection {
  /** Matches the broken field's JSON pointer. */
  pointer: RegExp;
  violations: readonly Violation[];
  rule: RuleId;
}

export interface FuzzTarget<S = any> {
  /** `--operation` name, e.g. `create-workflow`. */
  id: string;
  operation: Operation;
  /** The rule a valid request of the operation keeps (it succeeds, with a body of the response schema). */
  rule: RuleId;
  /** 2xx statuses the spec or the deployed service uses for success (the route map's). */
  success: readonly number[];
  body?: SchemaName;
  /** Schema of the query string (only string-valued properties). */
  query?: JsonSchema;
  setup(ctx: FuzzContext): Promise<S>;
  /** Restores what a previous request of the sequence may have consumed. */
  beforeEach?(ctx: FuzzContext, state: S): Promise<void>;
  path(state: S): string;
  /** Rewrites generated values that name state; `skip` is the broken pointer of an invalid body. */
  bind?(body: unknown, state: S, ctx: FuzzContext, skip?: string): unknown;
  /** Why a VALID request may end in this 4xx (the rule or spec text that allows it), or undefined when nothing does. */
  excused4xx?(res: ApiResponse, sent: SentRequest): string | undefined;
  rejections?: readonly Rejection[];
  /** Registers removal of what a 2xx created. */
  created?(ctx: FuzzContext, res: ApiResponse, sent: SentRequest): void;
}

const enc = encodeURIComponent;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The error answer blames only these fields: every key of a 422 `errors` map, or the message of another 4xx. */
function blames(res: ApiResponse, fields: RegExp[]): boolean {
  const body = res.json;
  if (fields.length === 0 || !isObject(body)) return false;
  const named = (text: string) => fields.some((f) => f.test(text));
  if (isObject(body.errors)) return Object.keys(body.errors).length > 0 && Object.keys(body.errors).every(named);
  return typeof body.message === 'string' && named(body.message);
}

function hasDuplicateStepIds(steps: unknown): boolean {
  const ids = Array.isArray(steps) ? steps.map((s) => (isObject(s) ? s.stepId : undefined)).filter((id) => typeof id === 'string') : [];
  return new Set(ids).size < ids.length;
}

function op(method: Operation['method'], template: string): Operation {
  const found = OPERATIONS.find((o) => o.method === method && o.template === template);
  if (!found) throw new Error(`${method} ${template} is not one of the eight operations`);
  return found;
}

/** The route map's name for the operation, its success statuses, and the rule that promises its success shape. */
function fromRouteMap(operation: Operation): Pick<FuzzTarget, 'id' | 'success' | 'rule'> {
  const routes = ROUTES.filter((r) => r.method === operation.method && r.template === operation.template);
  const name = routes[0]!.operation;
  return { id: name.replaceAll(' ', '-'), success: routes.flatMap((r) => r.statuses.filter((s) => s < 300)), rule: RULE_OF_OPERATION[name]! };
}

function target<S>(operation: Operation, rest: Omit<FuzzTarget<S>, 'id' | 'success' | 'rule' | 'operation'>): FuzzTarget<S> {
  return { operation, ...fromRouteMap(operation), ...rest };
}

const createWorkflow = target<Record<string, never>>(op('POST', '/v2/workflows'), {
  body: 'CreateWorkflowDto',
  setup: async () => ({}),
  path: () => '/v2/workflows',
  // unique, run-prefixed and still slug-shaped: `<prefix>-w<n>-<generated>`
  bind: (body, _s, ctx, skip) => rewriteAt(body, '/workflowId', (v) => `${ctx.unique('w')}-${v}`, skip),
  // the spec asks more than the schema can say: a payloadSchema that is a JSON Schema, stepIds that are unique
  excused4xx: (res, sent) => {
    const body = isObject(sent.body) ? sent.body : {};
    const excuses: [RegExp, string][] = [];
    if (isObject(body.payloadSchema)) excuses.push([/^payloadSchema\b/, 'spec: payloadSchema is the JSON Schema of the trigger payload; one the target cannot compile may be refused']);
    if (hasDuplicateStepIds(body.steps)) excuses.push([/^steps\[\d+\]\.stepId$|stepId/, 'spec: stepId is a unique step identifier; two steps with one may be refused']);
    return blames(res, excuses.map(([field]) => field)) ? excuses.map(([, why]) => why).join('; ') : undefined;
  },
  created: (ctx, res, sent) => {
    const id = (res.data as { _id?: unknown } | undefined)?._id ?? (sent.body as { workflowId?: unknown }).workflowId;
    if (typeof id === 'string') ctx.cleanup.remove(`workflow ${id}`, `/v2/workflows/${enc(id)}`);
  },
  rejections: [
    { pointer: /^\/(name|workflowId|steps)$/, violations: ['required'], rule: 'WF-03' },
    { pointer: /^\/workflowId$/, violations: ['pattern'], rule: 'WF-04' },
    { pointer: /^\/steps\/\d+\/type$/, violations: ['enum', 'const'], rule: 'WF-05' },
    { pointer: /^\/steps\/\d+\/name$/, violations: ['required', 'minLength'], rule: 'WF-06' },
    { pointer: /^\/steps\/\d+\/stepId$/, violations: ['pattern'], rule: 'WF-06' },
  ],
});

interface AgentLinkState {
  agent: string;
  link: string;
  integrations: string[];
}

const updateAgentIntegration = target<AgentLinkState>(op('PATCH', '/v1/agents/{identifier}/integrations/{agentIntegrationId}'), {
  body: 'UpdateAgentIntegrationRequestDto',
  setup: async ({ provision }) => {
    const { agent, link, linked, other } = await provision.linkedAgent();
    return { agent, link: link._id, integrations: [linked.identifier, other.identifier] };
  },
  path: (s) => `/v1/agents/${enc(s.agent)}/integrations/${enc(s.link)}`,
  bind: (body, s, _ctx, skip) => rewriteAt(body, '/integrationIdentifier', (v) => pick(v, s.integrations), skip),
  rejections: [{ pointer: /^\/integrationIdentifier$/, violations: ['required', 'type'], rule: 'AGI-02' }],
});

interface TopicState {
  topicKey: string;
  subscribers: string[];
}

const deleteTopicSubscriptions = target<TopicState>(op('DELETE', '/v2/topics/{topicKey}/subscriptions'), {
  body: 'DeleteTopicSubscriptionsRequestDto',
  setup: async ({ provision }) => {
    const { key } = await provision.topic();
    const subscribers: string[] = [];
    for (let i = 0; i < 3; i++) subscribers.push((await provision.subscriber()).subscriberId);
    return { topicKey: key, subscribers };
  },
  // each request may remove the subscriptions: subscribe again (an upsert) so every request meets them
  beforeEach: async ({ provision }, s) => void (await provision.subscribe(s.topicKey, s.subscribers)),
  path: (s) => `/v2/topics/${enc(s.topicKey)}/subscriptions`,
  // entries name a provisioned subscriber or stay as generated (an unknown one: a partial failure); "" stays "", the
  // value whose answer says most about the target's validation
  bind: (body, s, _ctx, skip) => {
    const known = (v: string) => (v === '' ? v : pick(v, [...s.subscribers, v]));
    let out = rewriteAt(body, '/subscriptions/*', known, skip);
    out = rewriteAt(out, '/subscriptions/*/subscriberId', known, skip);
    out = rewriteAt(out, '/subscriptions/*/identifier', (v) => pick(v, [...s.subscribers.map((id) => `${s.topicKey}:${id}`), v]), skip);
    return rewriteAt(out, '/subscriberIds/*', known, skip);
  },
  excused4xx: (res) => {
    const meta = isObject(res.json) && isObject(res.json.meta) ? res.json.meta : undefined;
    const allFailed = res.status === 400 && meta && typeof meta.totalCount === 'number' && meta.totalCount > 0 && meta.failed === meta.totalCount;
    return allFailed ? 'TS-08: every entry failed, 400 with the result in the body' : undefined;
  },
  rejections: [
    { pointer: /^\/subscriptions$/, violations: ['maxItems'], rule: 'TS-05' },
    { pointer: /^\/subscriberIds$/, violations: ['maxItems'], rule: 'TS-06' },
  ],
});

const layoutPreview = target<{ layoutId: string }>(op('POST', '/v2/layouts/{layoutId}/preview'), {
  body: 'LayoutPreviewRequestDto',
  setup: async ({ provision }) => provision.layout(),
  path: (s) => `/v2/layouts/${enc(s.layoutId)}/preview`,
  rejections: [{ pointer: /^\/previewPayload\/subscriber\/[^/]+/, violations: ['type'], rule: 'LP-05' }],
});

const listEnvironmentVariables = target<Record<string, never>>(op('GET', '/v1/environment-variables'), {
  // spec Limits: the key filter is at most 256 characters (the deployed service calls it `search`)
  query: { type: 'object', properties: { search: { type: 'string', maxLength: 256 } } },
  setup: async () => ({}),
  path: () => '/v1/environment-variables',
  rejections: [{ pointer: /^\/search$/, violations: ['maxLength'], rule: 'EV-05' }],
});

const listEnvironments = target<Record<string, never>>(op('GET', '/v1/environments'), {
  setup: async () => ({}),
  path: () => '/v1/environments',
});

interface PreferencesState {
  subscriberId: string;
  workflowRefs: string[];
}

const updateSubscriberPreferences = target<PreferencesState>(op('PATCH', '/v2/subscribers/{subscriberId}/preferences'), {
  body: 'PatchSubscriberPreferencesDto',
  setup: async ({ provision }) => {
    const workflow = await provision.workflow();
    const { subscriberId } = await provision.subscriber();
    return { subscriberId, workflowRefs: [workflow._id, workflow.workflowId, workflow.slug].filter((r) => typeof r === 'string') };
  },
  path: (s) => `/v2/subscribers/${enc(s.subscriberId)}/preferences`,
  // `workflowId` may be the internal _id, the identifier or the slug (PREF-02): one of the provisioned workflow's
  bind: (body, s, _ctx, skip) => rewriteAt(body, '/workflowId', (v) => pick(v, s.workflowRefs), skip),
  rejections: [
    { pointer: /^\/schedule\/weeklySchedule\/[a-z]+\/hours\/\d+\/(start|end)$/, violations: ['pattern'], rule: 'PREF-04' },
    { pointer: /^\/channels\/[a-z_]+$/, violations: ['type'], rule: 'PREF-06' },
  ],
});

const triggerEvent = target<{ workflowId: string }>(op('POST', '/v1/events/trigger'), {
  body: 'TriggerEventRequestDto',
  setup: async ({ provision }) => ({ workflowId: (await provision.workflow()).workflowId }),
  path: () => '/v1/events/trigger',
  // the provisioned workflow; recipients and actors a trigger may create come from the run's subscriber pool
  bind: (body, s, ctx, skip) => {
    let out = rewriteAt(body, '/name', () => s.workflowId, skip);
    // `to` is one recipient or a list of them (TRIG-03; the official client's model allows both)
    const recipients = isObject(out) && Array.isArray(out.to) ? ['/to/*', '/to/*/subscriberId'] : ['/to', '/to/subscriberId'];
    for (const at of [...recipients, '/actor', '/actor/subscriberId']) out = rewriteAt(out, at, (v) => ctx.subscriberFor(v), skip);
    return out;
  },
  excused4xx: (res, sent) => {
    if (res.status === 400 && isObject(sent.body) && typeof sent.body.bridgeUrl === 'string') return 'TRIG-05: a bridgeUrl that is not a publicly reachable https URL is rejected';
    // the official client's model lets a topic key be "", which the deployed service refuses as empty
    const emptyTopic = isObject(sent.body) && [sent.body.to].flat().some((r) => isObject(r) && r.topicKey === '');
    return emptyTopic && blames(res, [/^to(\[\d+\])?\.topicKey$/]) ? 'deployed: an empty topicKey is refused' : undefined;
  },
  rejections: [{ pointer: /^\/to$/, violations: ['maxItems'], rule: 'TRIG-02' }],
});

export const FUZZ_TARGETS: readonly FuzzTarget[] = [
  createWorkflow,
  updateAgentIntegration,
  deleteTopicSubscriptions,
  layoutPreview,
  listEnvironmentVariables,
  listEnvironments,
  updateSubscriberPreferences,
  triggerEvent,
];

export const FUZZ_TARGET_IDS = FUZZ_TARGETS.map((t) => t.id);
