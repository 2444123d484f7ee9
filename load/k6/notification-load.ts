// k6 script (k6 ≥ 0.57 runs TypeScript natively): the same scenario plans as the built-in engine, one
// constant-arrival-rate executor per stream, a tag per route, thresholds, and handleSummary writing the timeline.
// Run: CONFORMANCE_TARGET=http://127.0.0.1:8080 CONFORMANCE_API_KEY=… LOAD_SCENARIO=trigger-limit k6 run load/k6/notification-load.ts
// Split across instances with k6's --execution-segment / --execution-segment-sequence (or the k6-operator's
// parallelism): each instance writes its own timeline; `conformance load --from-timelines` merges them.
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Gauge, Trend } from 'k6/metrics';
import type { Options, Scenario } from 'k6/options';
import { declaredLimitOf, type DeclaredLimits } from '../scenarios/declared-limits.ts';
import { scenarioByName, type ProfileName } from '../scenarios/index.ts';
import { planScenario, type ScenarioPlan } from '../scenarios/plan.ts';
import { bodyFor, PROBE_ROUTES, ROUTES, type Category, type LoadFixture } from '../scenarios/routes.ts';
import { isNonNegativeInteger, isRateLimitBody } from '../timeline/rate-limit-body.ts';
import { bucketCount, bucketOf, k6BucketMs, k6IntervalMs, k6Rate, k6Streams, type K6Stream } from './streams.ts';
import {
  BUCKET_COUNTERS, BUCKET_TRENDS, bucketKey, ORIGIN_GAUGE, ROUTE_COUNTERS, ROUTE_TRENDS, routeKey, STATUS_COUNTER, STATUS_TAGS, statusKey, statusTag, summaryToTimeline,
  type K6SummaryData, type SetupData,
} from './summary-to-timeline.ts';

// why: no silent default target and no key in the script: both come from the environment, read where they are used
// (setup() refuses to start without them), so `k6 archive` bundles the script without them
const TARGET = (__ENV.CONFORMANCE_TARGET ?? '').replace(/\/$/, '');
const API_KEY = __ENV.CONFORMANCE_API_KEY ?? '';
// the settings' extra headers (--header) and client certificate; proxies k6 reads from HTTP_PROXY/HTTPS_PROXY/NO_PROXY itself
const EXTRA_HEADERS: Record<string, string> = __ENV.LOAD_EXTRA_HEADERS ? (JSON.parse(__ENV.LOAD_EXTRA_HEADERS) as Record<string, string>) : {};
const CLIENT_CERT = __ENV.LOAD_CLIENT_CERT ? { cert: open(__ENV.LOAD_CLIENT_CERT), key: open(__ENV.LOAD_CLIENT_KEY ?? '') } : undefined;
const plan = planFromEnv();
const SCENARIO = plan.scenario;
const OUT = __ENV.LOAD_TIMELINE_OUT ?? '';
requireOutputDirectory(OUT);
const streams = k6Streams(plan);
const streamById: Record<string, K6Stream> = {};
for (const s of streams) streamById[s.id] = s;
const BUCKET_MS = k6BucketMs(plan);
const BUCKETS = bucketCount(plan, BUCKET_MS);

const counters: Record<string, Counter> = {};
for (const name of [...BUCKET_COUNTERS, ...ROUTE_COUNTERS, STATUS_COUNTER]) counters[name] = new Counter(name);
const trends: Record<string, Trend> = {};
for (const name of ROUTE_TRENDS) trends[name] = new Trend(name, name === 'lt_latency' || name === 'lt_send_lag');
for (const name of BUCKET_TRENDS) trends[name] = new Trend(name, name === 'lt_lag' || name === 'lt_rt');
const origin = new Gauge(ORIGIN_GAUGE);

export const options: Options = {
  scenarios: Object.fromEntries(streams.map((s) => [s.id, scenarioOf(s)])),
  thresholds: thresholds(),
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(99)', 'count'],
  discardResponseBodies: false,
  setupTimeout: '60s',
  ...(CLIENT_CERT ? { tlsAuth: [CLIENT_CERT] } : {}),
};

function scenarioOf(s: K6Stream): Scenario {
  return {
    executor: 'constant-arrival-rate',
    rate: k6Rate(s),
    timeUnit: '100s',
    duration: `${s.durationMs}ms`,
    startTime: `${s.startMs}ms`,
    // why: an arrival-rate executor drops iterations instead of delaying them when no VU is free; enough VUs for
    // half a second of a stalled target keep a short stall from costing requests (each VU holds one connection)
    preAllocatedVUs: Math.ceil(s.rps * 0.5) + 10,
    maxVUs: Math.ceil(s.rps * 1) + 20,
    exec: 'hit',
    tags: { route: s.route },
  };
}

function thresholds(): Record<string, string[]> {
  const requests = plan.phases.reduce((n, p) => n + p.streams.reduce((m, s) => m + s.count, 0), 0);
  const t: Record<string, string[]> = {
    // the pass/fail k6 itself reports; the conformance verdict reads the timeline
    lt_ra_missing: ['count==0'],
    lt_body_bad: ['count==0'],
    'lt_throttled{no429:yes}': ['count==0'],
    lt_errors: [`count<=${Math.ceil(requests * 0.01)}`],
  };
  // why: k6's summary only carries submetrics that a threshold names; these always hold and exist to be read back
  const routes = [...new Set(streams.map((s) => s.route))];
  for (const route of routes) {
    for (let b = 0; b < BUCKETS; b++) for (const m of BUCKET_COUNTERS) t[bucketKey(m, route, b)] = ['count>=0'];
    for (let b = 0; b < BUCKETS; b++) for (const m of BUCKET_TRENDS) t[bucketKey(m, route, b)] = ['max>=0'];
    for (const m of ROUTE_COUNTERS) t[routeKey(m, route)] = ['count>=0'];
    for (const m of ROUTE_TRENDS) t[routeKey(m, route)] = ['max>=0'];
    for (const tag of STATUS_TAGS) t[statusKey(route, tag)] = ['count>=0'];
  }
  for (const s of streams) t[`dropped_iterations{scenario:${s.id}}`] = [`count<=${Math.ceil(s.count * 0.01)}`];
  return t;
}

export function setup(): { fixture: LoadFixture; setup: SetupData; created?: string } {
  required('CONFORMANCE_TARGET');
  required('CONFORMANCE_API_KEY');
  const headers = { ...EXTRA_HEADERS, authorization: `ApiKey ${API_KEY}`, 'content-type': 'application/json' };
  let created: string | undefined;
  let workflowId = __ENV.LOAD_WORKFLOW_ID;
  if (!workflowId) {
    workflowId = `load-k6-${Date.now().toString(36)}-wf`;
    const res = http.post(`${TARGET}/v2/workflows`, JSON.stringify({ name: `Load ${workflowId}`, workflowId, steps: [{ name: 's', type: 'in_app' }], active: true }), { headers });
    if (res.status !== 201 && res.status !== 200) throw new Error(`POST /v2/workflows answered ${res.status}`);
    const body = res.json() as { data?: { _id?: string } };
    created = body.data?._id ?? workflowId;
  }
  const fixture: LoadFixture = {
    workflowId,
    subscriberId: __ENV.LOAD_SUBSCRIBER_ID ?? `${workflowId}-sub`,
    bulkSubscriberId: __ENV.LOAD_BULK_SUBSCRIBER_ID ?? `${workflowId}-bulk-sub`,
  };
  // why: k6 metrics cannot carry strings, so each category's RateLimit-Policy comes from one probe request here
  const policies: SetupData['policies'] = {};
  for (const category of new Set(streams.map((s) => ROUTES[s.route].category))) {
    const route = PROBE_ROUTES[category];
    const r = ROUTES[route];
    const res = http.request(r.method, `${TARGET}${r.path}`, bodyFor(route, fixture) ?? null, { headers, tags: { route: 'probe' } });
    const policy = header(res.headers, 'ratelimit-policy');
    const limit = header(res.headers, 'ratelimit-limit');
    policies[category] = { ...(policy ? { policy } : {}), ...(limit ? { limit } : {}) };
  }
  return { fixture, setup: { startedAt: new Date().toISOString(), policies }, ...(created ? { created } : {}) };
}

// why: the hot loop allocates as little as it can (tags, headers, bodies made once per VU), so VUs stay free
const REQUEST_HEADERS = { ...EXTRA_HEADERS, authorization: `ApiKey ${API_KEY}`, 'content-type': 'application/json' };
const EXPECTED = http.expectedStatuses({ min: 200, max: 299 }, 429);
const perStream: Record<string, { t0: number; body: string | null; requestTags: Record<string, string>; routeTags: Record<string, string>; buckets: Record<string, string>[] }> = {};

function streamState(s: K6Stream, fixture: LoadFixture) {
  let st = perStream[s.id];
  if (!st) {
    // why: the plan's time 0 on this instance; the gauge's min across scenarios is the timeline's start
    const t0 = exec.scenario.startTime - s.startMs;
    origin.add(t0);
    const buckets = Array.from({ length: BUCKETS }, (_, b) => ({ route: s.route, b: String(b) }));
    st = { t0, body: bodyFor(s.route, fixture) ?? null, requestTags: { route: s.route, no429: s.expectNo429 ? 'yes' : 'no' }, routeTags: { route: s.route }, buckets };
    perStream[s.id] = st;
  }
  return st;
}

export function hit(data: ReturnType<typeof setup>): void {
  const s = streamById[exec.scenario.name]!;
  const i = exec.scenario.iterationInTest;
  // why: k6 starts one iteration more at the very end of a stream; the plan (and the node engine) has s.count
  if (i >= s.count) return;
  const st = streamState(s, data.fixture);
  // why: iterationInTest is the global index, also on a segment, so the schedule is the plan's, not this instance's
  const scheduledAt = st.t0 + s.startMs + i * k6IntervalMs(s);
  const sentAt = Date.now();
  const route = ROUTES[s.route];
  const res = http.request(route.method, `${TARGET}${route.path}`, st.body, { headers: REQUEST_HEADERS, tags: st.requestTags, responseCallback: EXPECTED });
  // why: latency from the scheduled time, like the built-in engine (no coordinated omission)
  const doneAt = Date.now();
  const bucketTags = st.buckets[bucketOf(sentAt - st.t0, BUCKET_MS, BUCKETS)]!;
  trends.lt_send_lag!.add(Math.max(0, sentAt - scheduledAt), st.routeTags);
  // why: how far the generator fell behind decides whether an interval can be judged (by schedule, as the built-in engine)
  trends.lt_lag!.add(Math.max(0, sentAt - scheduledAt), st.buckets[bucketOf(scheduledAt - st.t0, BUCKET_MS, BUCKETS)]!);
  if (res.status === 0) {
    counters.lt_errors!.add(1, bucketTags);
    return;
  }
  trends.lt_latency!.add(Math.max(0, doneAt - scheduledAt), st.routeTags);
  // why: the target acted between send and answer, so late answers blur when it counted the request
  trends.lt_rt!.add(Math.max(0, doneAt - sentAt), bucketTags);
  counters[STATUS_COUNTER]!.add(1, { route: s.route, status: statusTag(res.status) });
  const accepted = res.status >= 200 && res.status < 300;
  const remaining = header(res.headers, 'ratelimit-remaining');
  if (res.status === 429) counters.lt_throttled!.add(1, { ...bucketTags, no429: st.requestTags.no429! });
  else counters[accepted ? 'lt_accepted' : 'lt_other']!.add(1, bucketTags);
  if (isNonNegativeInteger(remaining)) trends.lt_rem!.add(Number(remaining), bucketTags);
  if (!isNonNegativeInteger(remaining)) counters.lt_rem_missing!.add(1, st.routeTags);
  else if (accepted) trends.lt_rem_acc!.add(Number(remaining), st.routeTags);
  else if (res.status === 429) trends.lt_rem_thr!.add(Number(remaining), st.routeTags);
  if (res.status === 429) {
    const retryAfter = header(res.headers, 'retry-after');
    if (retryAfter === undefined) counters.lt_ra_missing!.add(1, st.routeTags);
    else if (!isNonNegativeInteger(retryAfter)) counters.lt_ra_invalid!.add(1, st.routeTags);
    else trends.lt_retry_after!.add(Number(retryAfter), st.routeTags);
    if (typeof res.body !== 'string' || !isRateLimitBody(res.body)) counters.lt_body_bad!.add(1, st.routeTags);
  }
}

export function teardown(data: ReturnType<typeof setup>): void {
  if (!data.created) return;
  const headers = { ...EXTRA_HEADERS, authorization: `ApiKey ${API_KEY}` };
  http.del(`${TARGET}/v2/workflows/${encodeURIComponent(data.created)}`, null, { headers });
  http.del(`${TARGET}/v2/subscribers/${encodeURIComponent(data.fixture.subscriberId)}`, null, { headers });
  http.del(`${TARGET}/v2/subscribers/${encodeURIComponent(data.fixture.bulkSubscriberId)}`, null, { headers });
}

export function handleSummary(data: K6SummaryData & { setup_data?: ReturnType<typeof setup> }): Record<string, string> {
  const segment = exec.test.options.executionSegment ?? undefined;
  const segmentSequence = exec.test.options.executionSegmentSequence ?? undefined;
  const timeline = summaryToTimeline(plan, data, data.setup_data?.setup, {
    bucketMs: BUCKET_MS,
    target: TARGET,
    ...(__ENV.LOAD_RUN_ID ? { runId: __ENV.LOAD_RUN_ID } : {}),
    ...(segment ? { segment: String(segment) } : {}),
    ...(segmentSequence ? { segmentSequence: String(segmentSequence) } : {}),
  });
  const file = timelinePath(OUT, segment ? String(segment) : undefined);
  const lines = Object.entries(timeline.routes).map(([route, r]) => `${route}: ${JSON.stringify(r?.statuses)} dropped ${r?.dropped ?? 0}`);
  // why: the directory was checked in the init context, so the file is written by the time this is read
  return { [file]: JSON.stringify(timeline), stdout: `${SCENARIO} (${plan.profile}, limit ${plan.limitRps}/s${segment ? `, segment ${segment}` : ''})\n${lines.join('\n')}\ntimeline: ${file}\n` };
}

/** The runner passes its exact plan; a direct run plans from LOAD_SCENARIO, LOAD_PROFILE, LOAD_LIMIT_RPS and LOAD_POLICY_*. */
function planFromEnv(): ScenarioPlan {
  if (__ENV.LOAD_PLAN) return JSON.parse(__ENV.LOAD_PLAN) as ScenarioPlan;
  const name = __ENV.LOAD_SCENARIO ?? 'trigger-limit';
  const definition = scenarioByName(name);
  if (!definition) throw new Error(`LOAD_SCENARIO "${name}" is not a known scenario`);
  // why: a target's declared burst decides how long its over-limit phases must last (e.g. LOAD_POLICY_TRIGGER='3000;w=5;burst=3300')
  const declared: DeclaredLimits = {};
  for (const category of Object.keys(PROBE_ROUTES) as Category[]) {
    const limit = declaredLimitOf(__ENV[`LOAD_POLICY_${category.toUpperCase()}`]);
    if (limit) declared[category] = limit;
  }
  return planScenario(definition, (__ENV.LOAD_PROFILE ?? 'full') as ProfileName, Number(__ENV.LOAD_LIMIT_RPS ?? 600), Number(__ENV.LOAD_DURATION_SCALE ?? 1), declared);
}

/** LOAD_TIMELINE_OUT: a file, or a directory ending in `/`; default: the working directory. Segments get their own file. */
function timelinePath(out: string, segment: string | undefined): string {
  const suffix = segment ? `-${segment.replace(/[^0-9A-Za-z]+/g, '_')}` : '';
  if (out && !out.endsWith('/')) return out;
  return `${out}load-timeline-${SCENARIO}${suffix}.json`;
}

/** k6 cannot create directories: a missing one would lose the timeline after the whole run, so refuse before it. */
function requireOutputDirectory(out: string): void {
  const dir = out.endsWith('/') ? out.slice(0, -1) : out.includes('/') ? out.slice(0, out.lastIndexOf('/')) : '';
  // why: open() resolves relative paths from the script, handleSummary from the working directory
  const absolute = dir.startsWith('/') ? dir : __ENV.PWD ? `${__ENV.PWD}/${dir}` : '';
  if (!dir || !absolute) return;
  try {
    open(absolute);
  } catch (e) {
    if (/no such file or directory/i.test(String(e))) throw new Error(`LOAD_TIMELINE_OUT: the directory "${dir}" does not exist (k6 cannot create it): create it first`);
  }
}

function required(name: string): string {
  const v = __ENV[name];
  if (!v) throw new Error(`${name} is not set: the k6 script has no default target or key`);
  return v;
}

function header(headers: Record<string, string>, name: string): string | undefined {
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name) return headers[key];
  return undefined;
}
