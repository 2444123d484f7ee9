// Runs one planned scenario with the k6 binary (when installed): the script writes the timeline via handleSummary.
// Only a k6 that is new enough, exits 0 or 99 and wrote this run's timeline yields a verdict.
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScenarioPlan } from '../scenarios/plan.ts';
import type { LoadFixture } from '../scenarios/routes.ts';
import { k6NetworkEnv } from '../../config/network-dispatcher.ts';
import type { Timeline } from '../timeline/format.ts';
import { truncateTimeline } from '../timeline/truncate.ts';

export const K6_SCRIPT = fileURLToPath(new URL('./notification-load.ts', import.meta.url));
/** k6 runs TypeScript without a build step from v0.57 on. */
export const MIN_K6_VERSION = '0.57.0';

/** A k6 run that cannot support a verdict (old k6, crash, no or stale timeline): the message says why. */
export class K6RunError extends Error {}

export function findK6(env: Record<string, string | undefined> = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'k6');
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `k6 v1.3.0 (commit/…, go1.23.5, linux/amd64)` → [1, 3, 0]. */
export function parseK6Version(output: string): [number, number, number] | undefined {
  const m = /\bk6 v(\d+)\.(\d+)\.(\d+)/.exec(output);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function atLeast(v: [number, number, number], min: string): boolean {
  const m = min.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (v[i] !== m[i]) return v[i]! > m[i]!;
  return true;
}

/** The k6 on PATH if it is new enough, else why not (the CLI exits 2 with it). */
export async function checkK6(env: Record<string, string | undefined> = process.env): Promise<{ k6: string; version: string } | { error: string }> {
  const k6 = findK6(env);
  if (!k6) return { error: `no \`k6\` executable on PATH. Install k6 ≥ ${MIN_K6_VERSION} (https://grafana.com/docs/k6/latest/set-up/install-k6/) or use --engine node` };
  const out = await new Promise<{ text: string; failure?: string }>((resolve) => {
    execFile(k6, ['version'], { timeout: 10_000, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ text: `${stdout}${stderr}`, ...(error ? { failure: error.message.split('\n')[0]! } : {}) });
    });
  });
  const version = parseK6Version(out.text);
  if (!version) return { error: `\`${k6} version\` ${out.failure ? `failed (${out.failure})` : `printed no k6 version ("${out.text.trim().split('\n')[0] ?? ''}")`}; the scripts need k6 ≥ ${MIN_K6_VERSION}` };
  const found = version.join('.');
  if (!atLeast(version, MIN_K6_VERSION)) return { error: `${k6} is k6 v${found}; the scripts need k6 ≥ v${MIN_K6_VERSION} (TypeScript without a build step): upgrade k6 or use --engine node` };
  return { k6, version: found };
}

/** k6's exit codes (errext/exitcodes) worth naming. */
const EXIT_MEANINGS: Record<number, string> = {
  100: 'setup() timed out', 101: 'teardown() timed out', 103: 'engine error', 104: 'invalid configuration', 105: 'aborted from outside',
  107: 'script error', 108: 'script aborted', 109: 'Go panic',
};

export interface K6Target {
  baseUrl: string;
  apiKey: string;
}

export async function runScenarioK6(k6: string, plan: ScenarioPlan, target: K6Target, fixture: LoadFixture, timelineFile: string, signal?: AbortSignal): Promise<Timeline> {
  // why: a file left by an earlier run must never be judged as this one
  rmSync(timelineFile, { force: true });
  mkdirSync(dirname(timelineFile), { recursive: true });
  const runId = randomUUID();
  const spawnedAt = Date.now();
  // why: the key travels in the environment, never on the command line where `ps` would show it
  const env = {
    ...process.env,
    // the proxies, headers and client certificate of the settings: k6 reads HTTP_PROXY/HTTPS_PROXY/NO_PROXY itself
    ...k6NetworkEnv(),
    CONFORMANCE_TARGET: target.baseUrl,
    CONFORMANCE_API_KEY: target.apiKey,
    LOAD_PLAN: JSON.stringify(plan),
    LOAD_WORKFLOW_ID: fixture.workflowId,
    LOAD_SUBSCRIBER_ID: fixture.subscriberId,
    LOAD_BULK_SUBSCRIBER_ID: fixture.bulkSubscriberId,
    LOAD_TIMELINE_OUT: timelineFile,
    LOAD_RUN_ID: runId,
  };
  // why: --address= keeps k6's REST API off, so runs side by side do not compete for port 6565
  const started = performance.now();
  let stoppedAtMs: number | undefined;
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    const child = spawn(k6, ['run', '--quiet', '--address=', K6_SCRIPT], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    // why: k6 stops on SIGINT and still writes its summary (the timeline), as on a Ctrl-C in its own terminal
    const stop = () => {
      stoppedAtMs = performance.now() - started;
      child.kill('SIGINT');
    };
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
    child.on('error', reject);
    child.on('exit', (code, sig) => {
      signal?.removeEventListener('abort', stop);
      resolve({ code, signal: sig });
    });
  });
  // why: 99 means a k6 threshold was crossed (the timeline is complete and the verdict decides); 105 is k6's own
  // "aborted from outside", expected after the SIGINT this runner sent on an interruption
  const stoppedByUs = stoppedAtMs !== undefined && exit.code === 105;
  if (exit.code !== 0 && exit.code !== 99 && !stoppedByUs) {
    const how = exit.code === null ? `was killed by ${exit.signal}` : `exited with ${exit.code}${EXIT_MEANINGS[exit.code] ? ` (${EXIT_MEANINGS[exit.code]})` : ''}`;
    throw new K6RunError(`k6 ${how} running ${plan.scenario}: no verdict from this run (k6's own output above says why)`);
  }
  if (!existsSync(timelineFile)) throw new K6RunError(`k6 exited with ${exit.code} but wrote no timeline to ${timelineFile}: no verdict from this run`);
  let timeline: Timeline;
  try {
    timeline = JSON.parse(readFileSync(timelineFile, 'utf8')) as Timeline;
  } catch (e) {
    throw new K6RunError(`the timeline k6 wrote to ${timelineFile} is not JSON (${(e as Error).message}): no verdict from this run`);
  }
  if (timeline.runId !== runId) throw new K6RunError(`${timelineFile} carries run id ${JSON.stringify(timeline.runId)}, not this run's ${runId}: a stale or foreign timeline is never judged`);
  // why: one second of slack for clocks read in two processes
  if (!(Date.parse(timeline.startedAt) >= spawnedAt - 1000)) throw new K6RunError(`${timelineFile} says its load started at ${timeline.startedAt}, before this k6 run was started: never judged`);
  // why: k6 starts its clock after its own start-up; the duration it recorded is the part that ran
  return stoppedAtMs === undefined ? timeline : truncateTimeline(timeline, Math.min(stoppedAtMs, timeline.durationMs));
}
