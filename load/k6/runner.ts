// Runs one planned scenario with the k6 binary (when installed): the script writes the timeline via handleSummary.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScenarioPlan } from '../scenarios/plan.ts';
import type { LoadFixture } from '../scenarios/routes.ts';
import type { Timeline } from '../timeline/format.ts';
import { truncateTimeline } from '../timeline/truncate.ts';

export const K6_SCRIPT = fileURLToPath(new URL('./notification-load.ts', import.meta.url));

export function findK6(env: Record<string, string | undefined> = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'k6');
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

export async function runScenarioK6(k6: string, plan: ScenarioPlan, target: { baseUrl: string; apiKey: string }, fixture: LoadFixture, timelineFile: string, durationScale: number, signal?: AbortSignal): Promise<Timeline> {
  // why: the key travels in the environment, never on the command line where `ps` would show it
  const env = {
    ...process.env,
    CONFORMANCE_TARGET: target.baseUrl,
    CONFORMANCE_API_KEY: target.apiKey,
    LOAD_SCENARIO: plan.scenario,
    LOAD_PROFILE: plan.profile,
    LOAD_LIMIT_RPS: String(plan.limitRps),
    LOAD_DURATION_SCALE: String(durationScale),
    LOAD_WORKFLOW_ID: fixture.workflowId,
    LOAD_SUBSCRIBER_ID: fixture.subscriberId,
    LOAD_BULK_SUBSCRIBER_ID: fixture.bulkSubscriberId,
    LOAD_TIMELINE_OUT: timelineFile,
  };
  const started = performance.now();
  let stoppedAtMs: number | undefined;
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(k6, ['run', '--quiet', K6_SCRIPT], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    // why: k6 stops on SIGINT and still writes its summary (the timeline), as on a Ctrl-C in its own terminal
    const stop = () => {
      stoppedAtMs = performance.now() - started;
      child.kill('SIGINT');
    };
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
    child.on('error', reject);
    child.on('exit', (c) => {
      signal?.removeEventListener('abort', stop);
      resolve(c ?? 1);
    });
  });
  // why: k6 exits 99 when a threshold fails; the timeline is still written and the verdict decides
  if (!existsSync(timelineFile)) throw new Error(`k6 exited with ${code} and wrote no timeline to ${timelineFile}`);
  const timeline = JSON.parse(readFileSync(timelineFile, 'utf8')) as Timeline;
  // why: k6 starts its clock after its own start-up; the duration it recorded is the part that ran
  return stoppedAtMs === undefined ? timeline : truncateTimeline(timeline, Math.min(stoppedAtMs, timeline.durationMs));
}
