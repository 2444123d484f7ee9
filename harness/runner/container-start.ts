// Starting the candidate's container, step by step (image → create → start → HTTP answer), so that every way it can
// fail is told by its true reason, every wait prints progress, and a stop at any step removes what was created.
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { Redactor } from '../../report/redactor.ts';
import type { ContainerEngine } from './container-engine.ts';

export interface StartPlan {
  image: string;
  port: number;
  env: Record<string, string>;
  /** Marks the container as this run's, so it can be found (and removed) before its id is known. */
  label: { name: string; value: string };
  extraLabels?: Record<string, string>;
  /** Any HTTP answer on this path means the service is up (a 401 included). */
  waitPath: string;
  startupTimeoutMs: number;
  /** Values never printed (API keys, the container's environment values): replaced in its log lines. */
  secrets: string[];
  /** A stop (the first Ctrl-C): the start ends as soon as what is under way allows, removing what it created. */
  signal?: AbortSignal;
  log: (line: string) => void;
  progressEveryMs?: number;
  pollMs?: number;
  /** How long a pull may take before the run gives up on it. */
  pullPatienceMs?: number;
}

/** The container could not be started: `message` is the whole reason, ready to print. */
export class ContainerStartFailed extends Error {}
/** The start was stopped by the user; whatever it created was removed (or named in a message). */
export class ContainerStartInterrupted extends Error {}

/** How many of the container's last log lines a failure shows. */
export const LOG_LINES = 20;
const PROGRESS_EVERY_MS = 10_000;
const POLL_MS = 500;
const PULL_PATIENCE_MS = 120_000;
/** One wait-path request: a service that accepts the connection and says nothing is not up. */
const PROBE_TIMEOUT_MS = 2_000;

/** What exists on the engine at this moment: read by a second Ctrl-C, which cannot wait. */
export class ContainerTrack {
  id: string | undefined;
  creating = false;
  removed = false;
  constructor(
    readonly image: string,
    readonly label: { name: string; value: string },
  ) {}
}

/** Starts the container and waits for its HTTP answer; returns its id and base URL, or throws one of the two errors above. */
export async function startContainer(engine: ContainerEngine, plan: StartPlan, track: ContainerTrack): Promise<{ id: string; baseUrl: string }> {
  const progress = new Progress(plan.log, plan.progressEveryMs ?? PROGRESS_EVERY_MS);
  try {
    await ensureImage(engine, plan, progress);
    const id = await create(engine, plan, track, progress);
    try {
      if (plan.signal?.aborted) throw interrupted(plan, `while container ${short(id)} was being created`);
      progress.step(`Starting container ${short(id)}`, 'the engine’s own time');
      await engine.start(id);
      if (plan.signal?.aborted) throw interrupted(plan, `after container ${short(id)} was started`);
      const baseUrl = await waitForHttp(engine, plan, id, progress);
      return { id, baseUrl };
    } catch (error) {
      progress.stop();
      await removeAfterFailure(engine, id, track, plan.log);
      if (error instanceof ContainerStartInterrupted) throw new ContainerStartInterrupted(`${error.message}; ${track.removed ? `container ${short(id)} was removed` : `container ${short(id)} may be left (above)`}`);
      if (error instanceof ContainerStartFailed) throw error;
      throw new ContainerStartFailed(`the engine could not start container ${short(id)} of ${plan.image}: ${engineMessage(error)}`);
    }
  } finally {
    progress.stop();
  }
}

async function ensureImage(engine: ContainerEngine, plan: StartPlan, progress: Progress): Promise<void> {
  if (await engine.hasImage(plan.image)) return;
  const patience = plan.pullPatienceMs ?? PULL_PATIENCE_MS;
  progress.step(`Pulling ${plan.image} (not on the engine)`, `at most ${seconds(patience)} s`);
  const failure = await Promise.race([
    engine.pull(plan.image).then(
      () => undefined,
      (error: unknown) => engineMessage(error),
    ),
    sleep(patience, `no answer within ${seconds(patience)} s`, { ref: false }),
    stopped(plan.signal),
  ]);
  if (plan.signal?.aborted) throw interrupted(plan, 'while its image was being pulled; nothing was created');
  // a pull whose stream ended without an error may still have brought nothing
  if (failure === undefined && (await engine.hasImage(plan.image))) return;
  const why = failure ?? 'the pull ended without the image';
  const unanswered = /lookup|dial tcp|no such host|i\/o timeout|connection refused|network is unreachable|timeout|no answer within/i.test(why);
  throw new ContainerStartFailed(
    unanswered
      ? `the image ${plan.image} is not present on the engine and no registry answered (pull: ${why})`
      : `the image ${plan.image} is not present on the engine and could not be pulled (pull: ${why})`,
  );
}

/** A creation under way is never abandoned: its container would appear later and stay. */
async function create(engine: ContainerEngine, plan: StartPlan, track: ContainerTrack, progress: Progress): Promise<string> {
  progress.step(`Creating a container of ${plan.image}`, 'the engine’s own time');
  track.creating = true;
  try {
    track.id = await engine.create({ image: plan.image, port: plan.port, env: plan.env, labels: { ...plan.extraLabels, [plan.label.name]: plan.label.value } });
  } catch (error) {
    if (plan.signal?.aborted) throw interrupted(plan, 'while its container was being created; the engine created none');
    throw new ContainerStartFailed(`the engine could not create a container of ${plan.image}: ${engineMessage(error)}`);
  } finally {
    track.creating = false;
  }
  return track.id;
}

async function waitForHttp(engine: ContainerEngine, plan: StartPlan, id: string, progress: Progress): Promise<string> {
  const what = `port ${plan.port} at ${plan.waitPath}`;
  progress.step(`Waiting for container ${short(id)} of ${plan.image} to answer HTTP on ${what}`, `at most ${seconds(plan.startupTimeoutMs)} s`);
  const started = Date.now();
  for (;;) {
    const state = await engine.inspect(id);
    if (!state.running && state.status !== 'created') {
      const lines = await logTail(engine, id, plan);
      const how = state.oomKilled ? `was killed for lack of memory (exit code ${state.exitCode})` : `exited with code ${state.exitCode}`;
      throw new ContainerStartFailed(`container ${short(id)} of ${plan.image} ${how} before answering HTTP on ${what}${lines}`);
    }
    if (state.hostPort !== undefined) {
      const baseUrl = `http://${engine.host.includes(':') ? `[${engine.host}]` : engine.host}:${state.hostPort}`;
      if (await answers(`${baseUrl}${plan.waitPath}`, plan.signal)) return baseUrl;
    }
    if (plan.signal?.aborted) throw interrupted(plan, `while waiting for container ${short(id)} to answer`);
    if (Date.now() - started >= plan.startupTimeoutMs) {
      const lines = await logTail(engine, id, plan);
      throw new ContainerStartFailed(`container ${short(id)} of ${plan.image} gave no HTTP answer on ${what} within ${seconds(plan.startupTimeoutMs)} s (--target-port, --wait-path)${lines}`);
    }
    await sleep(plan.pollMs ?? POLL_MS, undefined, plan.signal ? { signal: plan.signal } : {}).catch(() => undefined);
  }
}

async function answers(url: string, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    const timeout = AbortSignal.timeout(PROBE_TIMEOUT_MS);
    const res = await request(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout, headersTimeout: PROBE_TIMEOUT_MS, bodyTimeout: PROBE_TIMEOUT_MS });
    await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    return res.statusCode > 0;
  } catch {
    return false;
  }
}

/** The container's last log lines, redacted, as the tail of a message; or that it logged nothing. */
async function logTail(engine: ContainerEngine, id: string, plan: StartPlan): Promise<string> {
  let lines: string[];
  try {
    lines = await engine.logs(id, LOG_LINES);
  } catch (error) {
    return `; its log could not be read: ${engineMessage(error)}`;
  }
  if (lines.length === 0) return '; it logged nothing';
  const redactor = new Redactor(plan.secrets.map((value) => ({ value, placeholder: 'REDACTED' })));
  return `; its last log lines:\n${lines.map((l) => `  | ${redactor.body(l)}`).join('\n')}`;
}

async function removeAfterFailure(engine: ContainerEngine, id: string, track: ContainerTrack, log: (line: string) => void): Promise<void> {
  try {
    await engine.remove(id);
    track.removed = true;
  } catch (error) {
    log(notRemoved(id, engineMessage(error)));
  }
}

/** Removes the run's container at its end, saying so while it lasts; an error is a message, never a stack. */
export async function removeContainer(engine: ContainerEngine, track: ContainerTrack, log: (line: string) => void, progressEveryMs = PROGRESS_EVERY_MS): Promise<void> {
  if (!track.id || track.removed) return;
  const progress = new Progress(log, progressEveryMs);
  progress.step(`Removing container ${short(track.id)}`, 'the engine’s own time');
  try {
    await engine.remove(track.id);
    track.removed = true;
    log(`Removed container ${short(track.id)}`);
  } catch (error) {
    log(notRemoved(track.id, engineMessage(error)));
  } finally {
    progress.stop();
  }
}

/** Says what is left behind and how to remove it. */
export function notRemoved(id: string, reason: string): string {
  return `Could not remove container ${short(id)}: ${reason}; remove it with \`docker rm -f ${id}\``;
}

/** An engine error's own words, one line (docker-modem puts the engine's JSON message in `json.message`). */
export function engineMessage(error: unknown): string {
  const e = error as { message?: unknown; json?: { message?: unknown }; reason?: unknown; statusCode?: unknown };
  const text = typeof e?.json?.message === 'string' ? e.json.message : typeof e?.message === 'string' && e.message.trim() ? e.message : String(error);
  return text.split('\n').find((l) => l.trim().length > 0)?.trim() ?? 'no message';
}

function interrupted(plan: StartPlan, when: string): ContainerStartInterrupted {
  return new ContainerStartInterrupted(`interrupted (${String(plan.signal?.reason ?? 'SIGINT')}) ${when}`);
}

function stopped(signal: AbortSignal | undefined): Promise<undefined> {
  if (!signal) return new Promise(() => undefined);
  return new Promise((resolve) => (signal.aborted ? resolve(undefined) : signal.addEventListener('abort', () => resolve(undefined), { once: true })));
}

export const short = (id: string) => id.slice(0, 12);
const seconds = (ms: number) => Math.round(ms / 1000);

/** One line at least every `everyMs` while a step lasts: what it waits for, how long so far, the bound. */
class Progress {
  private timer: NodeJS.Timeout | undefined;
  constructor(
    private readonly log: (line: string) => void,
    private readonly everyMs: number,
  ) {}

  step(what: string, bound: string, quietStart = false): void {
    this.stop();
    const since = Date.now();
    if (!quietStart) this.log(`${what} (${bound}) …`);
    // it also keeps the event loop alive while the engine's sockets are all that is pending
    this.timer = setInterval(() => this.log(`${what}: ${((Date.now() - since) / 1000).toFixed(0)} s so far (${bound})`), this.everyMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
