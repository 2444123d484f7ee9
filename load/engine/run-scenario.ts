// The built-in engine: runs one planned scenario on the open-model core and records its timeline.
import type { ScenarioPlan } from '../scenarios/plan.ts';
import { bodyFor, ROUTES, type LoadFixture, type RouteName } from '../scenarios/routes.ts';
import type { Timeline } from '../timeline/format.ts';
import { headerOf, runOpenModel, type OpenStream } from './open-model.ts';
import { TimelineRecorder } from './recorder.ts';
import { truncateTimeline } from '../timeline/truncate.ts';

export interface EngineTarget {
  baseUrl: string;
  apiKey: string;
}

export interface EngineOptions {
  bucketMs?: number;
  connections?: number;
  maxInFlight?: number;
  timeoutMs?: number;
  /** A Ctrl-C: the scenario stops scheduling; its timeline is judged as far as it went. */
  signal?: AbortSignal;
}

export async function runScenarioNode(plan: ScenarioPlan, target: EngineTarget, fixture: LoadFixture, options: EngineOptions = {}): Promise<Timeline> {
  const recorder = new TimelineRecorder(plan, options.bucketMs ?? 100);
  const routes: RouteName[] = [];
  const streams: OpenStream[] = [];
  const base = new URL(target.baseUrl);
  const prefix = base.pathname.replace(/\/$/, '');
  for (const phase of plan.phases) {
    for (const s of phase.streams) {
      const route = ROUTES[s.route];
      const body = bodyFor(s.route, fixture);
      routes.push(s.route);
      streams.push({
        startMs: s.startMs,
        intervalMs: 1000 / s.rps,
        count: s.count,
        method: route.method,
        path: prefix + route.path,
        headers: { authorization: `ApiKey ${target.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body } : {}),
      });
    }
  }
  const result = await runOpenModel({
    origin: base.origin,
    streams,
    connections: options.connections ?? 128,
    maxInFlight: options.maxInFlight ?? 2_000,
    timeoutMs: options.timeoutMs ?? 10_000,
    ...(options.signal ? { signal: options.signal } : {}),
    events: {
      onScheduled: (k, at) => recorder.scheduled(routes[k]!, at),
      onDropped: (k, at) => recorder.dropped(routes[k]!, at),
      onSent: (k, at, sentMs) => recorder.sent(routes[k]!, at, sentMs),
      onError: (k, _at, sentMs) => recorder.failed(routes[k]!, sentMs),
      wantBody: (status) => status < 200 || status >= 300,
      onResponse: (k, at, sentMs, doneMs, status, headers, body) => recorder.response(routes[k]!, at, sentMs, doneMs, status, (n) => headerOf(headers, n), body),
    },
  });
  const timeline = { ...recorder.toTimeline('node', result.startedAt, result.durationMs), target: target.baseUrl };
  return result.stoppedAtMs === undefined ? timeline : truncateTimeline(timeline, result.stoppedAtMs);
}
