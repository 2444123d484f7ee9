// k6 script (k6 ≥ 0.57 runs TypeScript natively): the same scenario plans as the built-in engine, one
// constant-arrival-rate executor per stream, a tag per route, thresholds, and handleSummary writing the timeline.
// Run: CONFORMANCE_TARGET=http://127.0.0.1:8080 CONFORMANCE_API_KEY=… LOAD_SCENARIO=trigger-limit k6 run load/k6/notification-load.ts
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import type { Options, Scenario } from 'k6/options';
import { scenarioByName, type ProfileName } from '../scenarios/index.ts';
import { planScenario } from '../scenarios/plan.ts';
import { bodyFor, ROUTES, type LoadFixture, type RouteName } from '../scenarios/routes.ts';
import { isNonNegativeInteger, isRateLimitBody } from '../timeline/rate-limit-body.ts';
import { bucketCount, K6_BUCKET_MS, k6Streams, type K6Stream } from './streams.ts';
import { BUCKET_COUNTERS, bucketKey, ROUTE_COUNTERS, ROUTE_TRENDS, routeKey, summaryToTimeline, type K6SummaryData, type SetupData } from './summary-to-timeline.ts';

// why: no silent default target and no key in the script: both come from the environment
const TARGET = required('CONFORMANCE_TARGET').replace(/\/$/, '');
const API_KEY = required('CONFORMANCE_API_KEY');
const SCENARIO = __ENV.LOAD_SCENARIO ?? 'trigger-limit';
const PROFILE = (__ENV.LOAD_PROFILE ?? 'full') as ProfileName;
const LIMIT_RPS = Number(__ENV.LOAD_LIMIT_RPS ?? 600);
const SCALE = Number(__ENV.LOAD_DURATION_SCALE ?? 1);
const OUT = __ENV.LOAD_TIMELINE_OUT ?? `reports/load-timeline-${SCENARIO}.json`;

const definition = scenarioByName(SCENARIO);
if (!definition) throw new Error(`LOAD_SCENARIO "${SCENARIO}" is not a known scenario`);
const plan = planScenario(definition, PROFILE, LIMIT_RPS, SCALE);
const streams = k6Streams(plan);
const streamById: Record<string, K6Stream> = {};
for (const s of streams) streamById[s.id] = s;

const counters: Record<string, Counter> = {};
for (const name of [...BUCKET_COUNTERS, ...ROUTE_COUNTERS]) counters[name] = new Counter(name);
const trends: Record<string, Trend> = {};
for (const name of ROUTE_TRENDS) trends[name] = new Trend(name, name === 'lt_latency');

export const options: Options = {
  scenarios: Object.fromEntries(streams.map((s) => [s.id, scenarioOf(s)])),
  thresholds: thresholds(),
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(99)', 'count'],
  discardResponseBodies: false,
  setupTimeout: '60s',
};

function scenarioOf(s: K6Stream): Scenario {
  return {
    executor: 'constant-arrival-rate',
    // why: k6 rates are per timeUnit; 100 s units keep fractional per-second rates exact
    rate: Math.round(s.rps * 100),
    timeUnit: '100s',
    duration: `${s.durationMs}ms`,
    startTime: `${s.startMs}ms`,
    // why: an arrival-rate executor drops iterations (dropped_iterations) instead of delaying when VUs run out
    preAllocatedVUs: Math.ceil(s.rps * 0.05) + 5,
    maxVUs: Math.ceil(s.rps * 1) + 20,
    exec: 'hit',
    tags: { route: s.route },
  };
}

function thresholds(): Record<string, string[]> {
  const t: Record<string, string[]> = {
    // the pass/fail k6 itself reports; the conformance verdict reads the timeline
    [routeKey('lt_ra_missing', 'trigger')]: ['count==0'],
    lt_ra_missing: ['count==0'],
    lt_body_bad: ['count==0'],
    'lt_throttled{no429:yes}': ['count==0'],
    lt_errors: [`count<=${Math.ceil(plan.requestCount * 0.01)}`],
  };
  // why: k6's summary only carries submetrics that a threshold names; these always hold and exist to be read back
  const routes = [...new Set(streams.map((s) => s.route))];
  for (const route of routes) {
    for (let b = 0; b < bucketCount(plan); b++) for (const m of BUCKET_COUNTERS) t[bucketKey(m, route, b)] = ['count>=0'];
    for (const m of ROUTE_COUNTERS) t[routeKey(m, route)] = ['count>=0'];
    for (const m of ROUTE_TRENDS) t[routeKey(m, route)] = ['max>=0'];
  }
  for (const s of streams) t[`dropped_iterations{scenario:${s.id}}`] = [`count<=${Math.ceil(s.count * 0.01)}`];
  return t;
}

export function setup(): { fixture: LoadFixture; setup: SetupData; created?: string } {
  const headers = { authorization: `ApiKey ${API_KEY}`, 'content-type': 'application/json' };
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
  const probes: Record<string, RouteName> = { trigger: 'trigger', configuration: 'environment-variables', global: 'environments' };
  for (const category of new Set(streams.map((s) => ROUTES[s.route].category))) {
    const route = probes[category]!;
    const r = ROUTES[route];
    const res = http.request(r.method, `${TARGET}${r.path}`, bodyFor(route, fixture) ?? null, { headers, tags: { route: 'probe' } });
    const policy = header(res.headers, 'ratelimit-policy');
    const limit = header(res.headers, 'ratelimit-limit');
    policies[category] = { ...(policy ? { policy } : {}), ...(limit ? { limit } : {}) };
  }
  return { fixture, setup: { startedAt: new Date().toISOString(), policies }, ...(created ? { created } : {}) };
}

export function hit(data: ReturnType<typeof setup>): void {
  const s = streamById[exec.scenario.name]!;
  const route = ROUTES[s.route];
  const b = Math.floor((Date.now() - exec.scenario.startTime + s.startMs) / K6_BUCKET_MS);
  const bucketTags = { route: s.route, b: String(b) };
  const routeTags = { route: s.route };
  const res = http.request(route.method, `${TARGET}${route.path}`, bodyFor(s.route, data.fixture) ?? null, {
    headers: { authorization: `ApiKey ${API_KEY}`, 'content-type': 'application/json' },
    tags: { route: s.route, no429: s.expectNo429 ? 'yes' : 'no' },
    responseCallback: http.expectedStatuses({ min: 200, max: 299 }, 429),
  });
  counters.lt_sent!.add(1, bucketTags);
  if (res.status === 0) {
    counters.lt_errors!.add(1, bucketTags);
    return;
  }
  trends.lt_latency!.add(res.timings.duration, routeTags);
  const accepted = res.status >= 200 && res.status < 300;
  const remaining = header(res.headers, 'ratelimit-remaining');
  if (res.status === 429) counters.lt_throttled!.add(1, { ...bucketTags, no429: s.expectNo429 ? 'yes' : 'no' });
  else counters[accepted ? 'lt_accepted' : 'lt_other']!.add(1, bucketTags);
  if (!isNonNegativeInteger(remaining)) counters.lt_rem_missing!.add(1, routeTags);
  else if (accepted) trends.lt_rem_acc!.add(Number(remaining), routeTags);
  else if (res.status === 429) trends.lt_rem_thr!.add(Number(remaining), routeTags);
  if (res.status === 429) {
    const retryAfter = header(res.headers, 'retry-after');
    if (retryAfter === undefined) counters.lt_ra_missing!.add(1, routeTags);
    else if (!isNonNegativeInteger(retryAfter)) counters.lt_ra_invalid!.add(1, routeTags);
    else trends.lt_retry_after!.add(Number(retryAfter), routeTags);
    if (typeof res.body !== 'string' || !isRateLimitBody(res.body)) counters.lt_body_bad!.add(1, routeTags);
  }
}

export function teardown(data: ReturnType<typeof setup>): void {
  if (!data.created) return;
  const headers = { authorization: `ApiKey ${API_KEY}` };
  http.del(`${TARGET}/v2/workflows/${encodeURIComponent(data.created)}`, null, { headers });
  http.del(`${TARGET}/v2/subscribers/${encodeURIComponent(data.fixture.subscriberId)}`, null, { headers });
  http.del(`${TARGET}/v2/subscribers/${encodeURIComponent(data.fixture.bulkSubscriberId)}`, null, { headers });
}

export function handleSummary(data: K6SummaryData & { setup_data?: ReturnType<typeof setup> }): Record<string, string> {
  const timeline = summaryToTimeline(plan, data, data.setup_data?.setup);
  const lines = Object.entries(timeline.routes).map(([route, r]) => `${route}: ${JSON.stringify(r?.statuses)} dropped ${r?.dropped ?? 0}`);
  return { [OUT]: JSON.stringify(timeline), stdout: `${SCENARIO} (${PROFILE}, limit ${LIMIT_RPS}/s)\n${lines.join('\n')}\ntimeline: ${OUT}\n` };
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
