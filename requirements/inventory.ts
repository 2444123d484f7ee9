// The behaviour inventory: every statement of the spec (requirements/spec/notification-api-spec.md) — each field row
// of each table, each body field, each numbered rule, each limit, each status line — once, with the rules and the
// tests that fail when it is broken; or, where no test sends or asserts it, what observes it in passing or why no
// black-box test can see it. Keyed `<heading> › <field>` as the spec's text gives them (cli/explain/spec-statements.ts).
// Tests are named by a fragment of their title as the source writes it (`${…}` parts included); every fragment must
// match a test of the suites. `npx conformance rules --inventory` lists statements left unmapped and stale fragments.
import type { RuleId } from './index.ts';

export interface StatementMapping {
  rules: readonly RuleId[];
  /** Fragments of the titles of the tests that fail when the statement is broken. */
  tests?: readonly string[];
  /** No test provokes it, but a check on every answer reads it (a schema, a passive check): seen-only. */
  seen?: string;
  /** Why no black-box test can see it: unobservable. */
  unobservable?: string;
  /** A test could see it but none does yet: untested, a gap the inventory owns up to. */
  gap?: string;
}

export type Coverage = 'covered' | 'seen-only' | 'unobservable' | 'untested';

export function coverageOf(m: StatementMapping): Coverage {
  if (m.tests && m.tests.length > 0) return 'covered';
  if (m.seen) return 'seen-only';
  return m.unobservable ? 'unobservable' : 'untested';
}

const t = (rules: RuleId[], ...tests: string[]): StatementMapping => ({ rules, tests });
const seen = (rules: RuleId[], how: string): StatementMapping => ({ rules, seen: how });
const none = (rules: RuleId[], why: string): StatementMapping => ({ rules, unobservable: why });
const gap = (rules: RuleId[], why: string): StatementMapping => ({ rules, gap: why });

const WF_SCHEMA = 'the WorkflowResponseDto schema on every workflow answer (type when present)';
const CREATED = 'POST /v2/workflows with one in-app step answers 201 and a workflow response';
const ECHO = 'the created workflow echoes name, workflowId, description, tags';
const STATUS_TABLE = 'Status codes listed for workflow creation';
const NOT_SHOWN = 'the spec says "not shown": nothing to test';

export const INVENTORY: Readonly<Record<string, Readonly<Record<string, StatementMapping>>>> = {
  'Workflow create request (CreateWorkflowDto)': {
    name: t(['WF-01', 'WF-02', 'WF-03'], ECHO, 'POST /v2/workflows without ${field} answers 422 naming ${field}'),
    workflowId: t(['WF-02', 'WF-03', 'WF-04'], ECHO, 'a workflowId with ${label} is rejected with 422', 'a workflowId using "-", "_" and "." inside the slug pattern is accepted'),
    steps: t(['WF-01', 'WF-03', 'WF-05'], 'POST /v2/workflows with an empty steps array answers 201', 'POST /v2/workflows without ${field} is rejected', 'one step of each of the eleven types'),
    description: t(['WF-02'], ECHO),
    tags: t(['WF-02', 'CLIENT-02'], ECHO, 'a workflow created without tags carries no tags'),
    active: t(['WF-02'], ECHO, 'a workflow created without active, isTranslationEnabled and agent has false, false and null'),
    validatePayload: t(['WF-02', 'TRIG-06'], ECHO, 'answers a payload violating the payloadSchema with a PAYLOAD_VALIDATION_ERROR body'),
    payloadSchema: t(['WF-01', 'WF-02'], ECHO, 'POST /v2/workflows with payloadSchema null answers 201', 'payloadSchemas using a vendor keyword'),
    isTranslationEnabled: t(['WF-02'], ECHO, 'a workflow created without active, isTranslationEnabled and agent'),
    agent: t(['WF-02', 'WF-08'], 'a workflow created with an agent and a provider replyTo stores and echoes the agent', 'a workflow created with agent null has agent null'),
    __source: t(['WF-02'], 'a workflow created with __source never returns __source'),
    preferences: t(['WF-07'], 'a workflow created with user and workflow preferences is accepted and carries preferences'),
    severity: t(['WF-02', 'WF-11'], ECHO, 'a workflow created without severity reports one of the deployed severity values'),
  },
  'Workflow agent config': {
    identifier: t(['WF-08'], 'a workflow created with an agent without providers stores and echoes the agent', 'a workflow whose agent identifier is outside the slug pattern'),
    providers: t(['WF-08'], 'a workflow created with an agent and a provider replyTo stores and echoes the agent'),
  },
  'Step upsert (all types)': {
    _id: none(['WF-05'], 'used to update an existing step; the spec lists no update operation, so a creation cannot show its effect'),
    stepId: t(['WF-06', 'WF-10'], 'a stepId outside the slug pattern is rejected while a slug-pattern stepId is accepted', 'two steps giving the same stepId'),
    name: t(['WF-06'], 'a step without name is rejected with 4xx and creates nothing', 'a step with an empty name is rejected'),
    type: t(['WF-05'], 'one step of each of the eleven types', 'a step of an unknown type is rejected with 4xx'),
    controlValues: seen(['WF-01'], 'sent by the step builders; the in-app control values are "not shown", so only acceptance is read'),
  },
  'Workflow preferences request': {
    user: t(['WF-07'], 'a workflow created with user preferences holding only `all`', 'a workflow created with user and workflow preferences'),
    workflow: t(['WF-07'], 'only workflow preferences holding only channels', 'only workflow preferences holding only `all`'),
  },
  'Workflow response (WorkflowResponseDto)': {
    _id: t(['WF-01', 'WF-10'], CREATED, 'non-empty _id and slug'),
    workflowId: t(['WF-01', 'WF-02'], ECHO),
    slug: t(['WF-01', 'WF-10'], 'non-empty _id and slug'),
    'createdAt, updatedAt': t(['WF-10', 'WF-11'], 'the workflow response carries string timestamps', 'carry ISO-8601 timestamps and the deployed origin'),
    updatedBy: seen(['WF-01'], WF_SCHEMA),
    lastPublishedAt: seen(['WF-01'], WF_SCHEMA),
    lastPublishedBy: seen(['WF-01'], WF_SCHEMA),
    steps: t(['WF-05'], 'one step of each of the eleven types is created with their order and type kept'),
    origin: t(['WF-01', 'WF-11'], CREATED, 'the deployed origin, status and severity values'),
    preferences: t(['WF-07'], 'carries preferences'),
    status: t(['WF-01', 'WF-11'], CREATED, 'the deployed origin, status and severity values'),
    issues: seen(['WF-01'], WF_SCHEMA),
    lastTriggeredAt: seen(['WF-01', 'TRIG-02'], 'read by the trigger tests to see whether a run happened (fixtures/trigger/trigger-effects.ts)'),
    payloadExample: seen(['WF-01'], WF_SCHEMA),
    severity: t(['WF-11'], 'a workflow created without severity reports one of the deployed severity values', 'a workflow sent with a severity outside the deployed values'),
  },
  'Agent-integration link (AgentIntegrationResponseDto)': {
    _id: t(['AGI-01'], 'updating a link with an existing integrationIdentifier answers 200'),
    _agentId: t(['AGI-01'], 'updating a link with an existing integrationIdentifier answers 200'),
    integration: t(['AGI-01'], 'updating a link with an existing integrationIdentifier answers 200'),
    '_environmentId, _organizationId': t(['AGI-01'], 'updating a link with an existing integrationIdentifier answers 200'),
    'createdAt, updatedAt': t(['AGI-01'], 'updating a link with an existing integrationIdentifier answers 200'),
    connectedAt: t(['AGI-05'], 'connectedAt is empty on a link that never received an inbound webhook'),
    exceedsPlanLimit: t(['AGI-06'], 'exceedsPlanLimit, where present, is a boolean'),
  },
  'Topic subscription': {
    _id: t(['TS-01'], 'deleting by identifier removes the subscriptions, lists them in data'),
    topic: t(['TS-01'], 'deleting by identifier removes the subscriptions, lists them in data'),
    subscriber: t(['TS-01'], 'deleting by identifier removes the subscriptions, lists them in data'),
    'createdAt, updatedAt': t(['TS-01'], 'deleting by identifier removes the subscriptions, lists them in data'),
    identifier: t(['TS-07'], 'subscription identifiers join the topic key and subscriber id with a colon'),
    contextKeys: t(['TS-07'], 'contextKeys are type:id pairs'),
  },
  'Layout preview subscriber (inside previewPayload.subscriber)': {
    '_id, firstName, lastName, email, phone, avatar, locale, timezone': t(['LP-03', 'LP-05'], 'every subscriber field the spec lists', 'each subscriber field the spec types'),
    channels: t(['LP-03', 'LP-05'], 'every subscriber field the spec lists', 'a channels entry with a field of another type'),
    topics: t(['LP-03', 'LP-05'], 'every subscriber field the spec lists', 'each subscriber field the spec types'),
    isOnline: t(['LP-03', 'LP-05'], 'every subscriber field the spec lists', 'preview subscriber fields of the wrong type are rejected'),
    lastOnlineAt: t(['LP-03'], 'every subscriber field the spec lists'),
    __v: t(['LP-03', 'LP-05'], 'every subscriber field the spec lists', 'each subscriber field the spec types'),
    data: t(['LP-03', 'LP-05'], 'every subscriber field the spec lists', 'each subscriber field the spec types'),
  },
  'Environment variable': {
    '_id, _organizationId': t(['EV-01'], 'GET /v1/environment-variables answers 200 with an array of schema-valid environment variables'),
    key: t(['EV-01', 'EV-04'], 'schema-valid environment variables', 'filter matches keys case-insensitively and partially'),
    type: t(['EV-01'], 'schema-valid environment variables'),
    isSecret: t(['EV-02'], "no environment's secret value comes back readable"),
    values: t(['EV-03'], 'non-secret values are listed as stored, one entry per environment'),
    'createdAt, updatedAt': t(['EV-01'], 'schema-valid environment variables'),
  },
  Environment: {
    _id: t(['ENV-01'], 'GET /v1/environments answers 200 with an array of environments'),
    name: t(['ENV-01'], 'GET /v1/environments answers 200 with an array of environments'),
    _organizationId: t(['ENV-02'], 'every listed environment has the caller’s _organizationId'),
    identifier: t(['ENV-01'], 'GET /v1/environments answers 200 with an array of environments'),
    type: t(['ENV-01'], 'environments of type dev or prod'),
    apiKeys: t(['ENV-03'], 'apiKeys are listed only on the caller key’s own environment', 'the restricted key is shown no apiKeys'),
    _parentId: seen(['ENV-01'], 'the EnvironmentDto schema on every answer (type when present)'),
    slug: seen(['ENV-01'], 'the EnvironmentDto schema on every answer (type when present)'),
  },
  'Subscriber preferences (response of preference update)': {
    global: t(['PREF-01', 'PREF-03'], 'updates global channel preferences when no workflowId is given', 'stores a valid 12-hour weekly schedule'),
    workflows: t(['PREF-02', 'PREF-07'], "updates only the named workflow's entry", 'overrides with source subscriber'),
  },
  'Trigger response': {
    acknowledged: t(['TRIG-01'], 'answers 201 with an acknowledged, processed trigger response'),
    status: t(['TRIG-01', 'TRIG-08', 'TRIG-10'], 'answers 201 with an acknowledged, processed trigger response', 'answers trigger_not_active', 'answers no_workflow_steps_defined', 'answers invalid_recipients'),
    error: seen(['TRIG-01'], 'the TriggerEventResponseDto schema on every trigger answer (type when present)'),
    transactionId: t(['TRIG-01', 'TRIG-04'], 'echoes a given transactionId in the trigger response'),
    activityFeedLink: t(['TRIG-11'], 'activityFeedLink is a URL naming the run'),
    jobData: seen(['TRIG-01'], 'the TriggerEventResponseDto schema on every trigger answer (type when present)'),
  },
  'Create a workflow': {
    Body: t(['WF-01'], CREATED),
    'status 201': t(['WF-01'], CREATED),
    'Response headers on the listed responses': t(['ERR-09', 'RL-01', 'IDEM-02', 'IDEM-04', 'RL-04', 'RL-10'], 'a JSON success and a JSON error are both served as application/json', '${label} responses carry the four RateLimit headers', 'a repeated keyed workflow creation replays the 201'),
  },
  'Update an agent integration': {
    Path: t(['AGI-03'], 'an unknown agent, link or integration identifier gets 404', 'a link of another agent is unknown under this agent'),
    Body: t(['AGI-01', 'AGI-02', 'AGI-04'], 'an update without integrationIdentifier, or with a non-string one', 'the integration’s internal _id is not accepted'),
    'status 200': t(['AGI-01'], 'updating a link with an existing integrationIdentifier answers 200'),
  },
  'Delete topic subscriptions': {
    Path: t(['TS-08'], 'deleting subscriptions of an unknown topic key gets 404'),
    subscriptions: t(['TS-01', 'TS-02', 'TS-05'], 'deleting by identifier removes the subscriptions', 'an entry with only subscriberId removes every subscription', 'rejects 101 subscriptions entries'),
    subscriberIds: t(['TS-06'], 'the deprecated subscriberIds removes subscriptions'),
    'Response body': t(['TS-03', 'TS-04'], 'a partial success answers 2xx, reports unknown subscribers as SUBSCRIBER_NOT_FOUND', 'meta.totalCount equals successful + failed'),
  },
  'Generate a layout preview': {
    Path: t(['LP-04'], 'a preview of an unknown layoutId gets 404'),
    Body: t(['LP-01'], 'a preview needs no body field', 'a preview sent without any body succeeds'),
    'Response body': t(['LP-01', 'LP-02'], 'a preview of an existing layout succeeds with previewPayloadExample, result and schema', 'the preview of an email layout has result.type email'),
  },
  'List all environment variables': {
    Query: t(['EV-04', 'EV-05', 'EV-06'], 'filter matches keys case-insensitively and partially', 'characters is accepted and one of', 'regex metacharacters'),
    Response: t(['EV-01', 'EV-02'], 'schema-valid environment variables', "no environment's secret value comes back readable"),
  },
  'List all environments': {
    'status 200': t(['ENV-01', 'ENV-02'], 'GET /v1/environments answers 200 with an array of environments'),
  },
  'Update subscriber preferences': {
    Path: t(['PREF-05'], 'answers 404 to a preference update of an unknown subscriber'),
    Body: t(['PREF-01'], 'updates global channel preferences when no workflowId is given'),
    channels: t(['PREF-01', 'PREF-06'], 'updates global channel preferences', 'rejects a channel value of ${label}'),
    workflowId: t(['PREF-02', 'PREF-05'], "updates only the named workflow's entry when workflowId is its ${form.label}", 'refuses a workflow preference update naming an unknown workflowId'),
    schedule: t(['PREF-03', 'PREF-04'], 'stores a valid 12-hour weekly schedule', 'rejects schedule hours'),
    context: t(['PREF-08'], 'accepts a context beside workflowId, channels and schedule'),
    Response: t(['PREF-01'], 'updates global channel preferences when no workflowId is given'),
  },
  'Trigger event': {
    Body: t(['TRIG-01'], 'answers 201 with an acknowledged, processed trigger response'),
    name: t(['TRIG-07'], 'does not process a trigger naming an unknown workflow'),
    to: t(['TRIG-02', 'TRIG-03', 'TRIG-10'], 'rejects 101 recipients and triggers nothing', 'accepts subscriber-id strings and subscriber objects mixed', 'accepts a subscriber object carrying every documented field'),
    payload: t(['TRIG-01', 'TRIG-06'], 'accepts a trigger whose payload is 200 KB', 'answers a payload violating the payloadSchema'),
    bridgeUrl: t(['TRIG-05'], 'rejects a bridgeUrl with ${form.label} and triggers nothing', 'accepts a trigger with each bridgeUrl the operator names as acceptable'),
    overrides: t(['TRIG-09'], 'accepts `overrides` with steps, channels, providers and per-channel objects', 'accepts `overrides` naming a layout'),
    agentId: t(['TRIG-09'], 'accepts `agentId` as a public agent identifier string', 'accepts `agentId: null` to disable agent routing'),
    transactionId: t(['TRIG-04'], 'echoes a given transactionId', 'ignores a trigger repeating an earlier transactionId'),
    actor: t(['TRIG-09'], 'accepts `actor` as a subscriber id string', 'accepts `actor` as a subscriber object and creates that subscriber'),
    tenant: t(['TRIG-09'], 'accepts `tenant` as an identifier string', 'accepts `tenant` as a tenant object'),
    context: t(['TRIG-09'], 'accepts a `context` map of string keys to string values'),
    'status 201': t(['TRIG-01'], 'answers 201 with an acknowledged, processed trigger response'),
    'rule 1': t(['TRIG-04'], 'ignores a trigger repeating an earlier transactionId: no second run'),
    'rule 2': t(['IDEM-02', 'IDEM-03', 'IDEM-08'], 'a repeated keyed trigger replays the response and runs the workflow once', 'concurrent duplicates of a keyed trigger', 'replays of a keyed preference update leave a full bucket full'),
    'rule 3': none(['TRIG-04'], 'how the target deduplicates concurrent triggers with one transactionId is left open ("not deduplicated the same way"): no outcome is wrong'),
    'payload validation failure body': t(['TRIG-06'], 'answers a payload violating the payloadSchema with a PAYLOAD_VALIDATION_ERROR body', 'names a missing required property in errors[].field'),
  },
  Authentication: {
    'rule 1': t(['AUTH-01', 'AUTH-02', 'AUTH-03'], '${operationLabel(op)} without Authorization gets 401', '${operationLabel(op)} with a valid key under the Bearer scheme gets 401', '${operationLabel(op)} with a bare valid key'),
    'rule 2': none([], 'the name of the security scheme in the interface description: not on the wire'),
    'rule 3': t(['AUTH-05'], "a workflow is invisible to, and survives deletion by, another environment's key", 'a topic and its subscriptions are invisible to'),
    'rule 4': t(['AUTH-01', 'AUTH-02', 'AUTH-04'], '${operationLabel(op)} with an unknown, empty or padded key gets 401', 'a workflow creation with the restricted key gets 403'),
    'rule 5': none([], NOT_SHOWN),
  },
  'Common error body (ErrorDto)': {
    statusCode: t(['ERR-01'], 'a 404 for an unknown workflow carries the common error body with its status and path'),
    timestamp: t(['ERR-01'], 'a 404 for an unknown workflow carries the common error body'),
    path: t(['ERR-01'], 'a 400 for malformed JSON carries the common error body with its status and path'),
    message: seen(['ERR-01'], 'the ErrorDto schema on every error answer (type when present)'),
    ctx: seen(['ERR-01'], 'the ErrorDto schema on every error answer (type when present)'),
    errorId: t(['ERR-08', 'ERR-11'], 'a 500 provoked by a malformed body, if any, carries errorId', 'error bodies of 4xx answers'),
  },
  [STATUS_TABLE]: {
    'status 400': t(['ERR-07', 'ERR-01'], 'malformed JSON in a workflow body gets 400', 'a 400 for malformed JSON carries the common error body'),
    'status 401': t(['AUTH-01', 'AUTH-02'], '${operationLabel(op)} without Authorization gets 401 and the common error body'),
    'status 403': t(['AUTH-04'], 'a workflow creation with the restricted key gets 403'),
    'status 404': t(['ERR-03'], 'reading an unknown workflow gets 404 and the common error body'),
    'status 405': t(['ERR-04'], '${method} ${template} gets 405 or 404'),
    'status 409': t(['IDEM-03', 'WF-09'], 'a 409 for an in-flight duplicate carries Retry-After', 'a second workflow with the same workflowId is rejected with 409 or 400'),
    'status 413': t(['ERR-05'], 'a trigger whose payload is over 512 KB gets 413'),
    'status 414': t(['ERR-06'], 'a URI of 20,000 characters (long query string) gets 414'),
    'status 415': t(['ERR-07'], 'a workflow body sent as ${contentType} gets 415'),
    'status 422': t(['ERR-02'], 'a 422 for an invalid workflowId carries the validation error body'),
    'status 429': t(['RL-04'], 'an exhausted trigger bucket answers 429 with Retry-After'),
    'status 500': t(['ERR-08'], 'a 500 provoked by a malformed body, if any, carries errorId'),
    'status 503': t(['RL-10'], 'every 503 met during a run of triggers carries Retry-After'),
  },
  Limits: {
    'Rate-limit categories': t(['RL-06'], 'with the trigger bucket exhausted, configuration and global requests still succeed'),
    'Standard requests': t(['RL-03', 'RL-05'], 'a standard trigger lowers RateLimit-Remaining by 1', 'a standard configuration request lowers RateLimit-Remaining by 1'),
    'Bulk requests': t(['RL-03', 'RL-08'], 'a bulk trigger lowers RateLimit-Remaining by 100', 'a bulk subscriber creation lowers RateLimit-Remaining by 100', 'the bulk subscribers endpoint accepts about 2 requests per second'),
    'Recipients per trigger': t(['TRIG-02', 'VER-02'], 'rejects 101 recipients and triggers nothing', 'accepts exactly 100 recipients', 'a trigger under the regional base with ${MAX_RECIPIENTS + 1} recipients'),
    'Entries per delete-topic-subscriptions call': t(['TS-05', 'TS-06'], 'rejects 101 subscriptions entries', 'rejects 101 ids without removing any'),
    'Environment variable key filter': t(['EV-05'], 'characters is accepted and one of'),
    'rule 1': t(['RL-04'], 'an exhausted trigger bucket answers 429 with Retry-After'),
    'rule 2': t(['RL-01', 'RL-02', 'RL-07'], '${label} responses carry the four RateLimit headers', '${label} rate-limit headers are integers', 'after waiting Retry-After seconds a trigger is accepted again', 'after waiting the RateLimit-Reset of an accepted bulk trigger'),
    'rule 3': none([], 'advice to clients (backoff, jitter): no behaviour of the service'),
    'rule 4': none(['ERR-05', 'ERR-06'], `${NOT_SHOWN} (the deployed 512 KB trigger limit is tested under ERR-05)`),
    'rule 5': none(['TRIG-04'], NOT_SHOWN),
  },
};

/** The inventory as one list of statements, keyed as the spec's reading keys them. */
export function inventoryStatements(): { key: string; mapping: StatementMapping }[] {
  return Object.entries(INVENTORY).flatMap(([heading, rows]) => Object.entries(rows).map(([field, mapping]) => ({ key: `${heading} › ${field}`, mapping })));
}
