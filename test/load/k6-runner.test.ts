// The k6 runner's refusals, with fake `k6` executables: an old k6, a directory named k6, a crash, a missing or
// stale timeline. None of them may ever yield a verdict.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadCommand } from '../../cli/commands/load-command.ts';
import { loadSummary } from '../../certify/bundle.ts';
import { checkK6, findK6, K6RunError, runScenarioK6 } from '../../load/k6/runner.ts';
import { scenarioByName } from '../../load/scenarios/index.ts';
import { planScenario } from '../../load/scenarios/plan.ts';

const root = mkdtempSync(join(tmpdir(), 'k6-runner-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A directory holding an executable `k6` shell script: `version` prints `version`, `run` runs `body`. */
function fakeK6(name: string, version: string, body = 'exit 0'): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const script = `#!/bin/sh\nif [ "$1" = version ]; then echo '${version}'; exit 0; fi\n${body}\n`;
  writeFileSync(join(dir, 'k6'), script);
  chmodSync(join(dir, 'k6'), 0o755);
  return dir;
}

const NEW = 'k6 v1.3.0 (commit/5870e99ae8, go1.23.5, linux/amd64)';
/** Writes a timeline for the run id and plan the runner passed, stamped now. */
const WRITES_TIMELINE = `printf '{"format":"notification-api-conformance/load-timeline","formatVersion":1,"engine":"k6","scenario":"trigger-limit","runId":"%s","startedAt":"%s","durationMs":1,"bucketMs":100,"plan":%s,"routes":{},"buckets":[]}' "$LOAD_RUN_ID" "$(date -u +%Y-%m-%dT%H:%M:%S.000Z)" "$LOAD_PLAN" > "$LOAD_TIMELINE_OUT"`;
const plan = planScenario(scenarioByName('trigger-limit')!, 'short', 200);
const target = { baseUrl: 'http://127.0.0.1:9', apiKey: 'k' };
const fixture = { workflowId: 'wf', subscriberId: 's', bulkSubscriberId: 'b' };
const staleTimeline = (file: string) => writeFileSync(file, JSON.stringify({ format: 'notification-api-conformance/load-timeline', runId: 'an-earlier-run', startedAt: new Date().toISOString() }));

describe('k6 binary and version', () => {
  test('only an executable file counts as k6: a directory named k6 or a non-executable file does not', () => {
    mkdirSync(join(root, 'dir-path', 'k6'), { recursive: true });
    mkdirSync(join(root, 'plain-path'), { recursive: true });
    writeFileSync(join(root, 'plain-path', 'k6'), 'not executable');
    const real = fakeK6('exec-path', NEW);
    expect(findK6({ PATH: [join(root, 'dir-path'), join(root, 'plain-path')].join(':') })).toBeUndefined();
    expect(findK6({ PATH: [join(root, 'dir-path'), join(root, 'plain-path'), real].join(':') })).toBe(join(real, 'k6'));
  });

  test('k6 below 0.57 is refused, naming the version found and the version needed', async () => {
    const r = await checkK6({ PATH: fakeK6('old', 'k6 v0.48.0 (2023-12-04T10:54:06+0000/v0.48.0-0-g8d3a37a0, go1.21.4, linux/amd64)') });
    expect('error' in r && r.error).toMatch(/is k6 v0\.48\.0; the scripts need k6 ≥ v0\.57\.0/);
    expect(await checkK6({ PATH: fakeK6('new', NEW) })).toEqual({ k6: join(root, 'new', 'k6'), version: '1.3.0' });
    expect(await checkK6({ PATH: fakeK6('v057', 'k6 v0.57.0 (go1.24.1, linux/amd64)') })).toMatchObject({ version: '0.57.0' });
  });

  test('a k6 whose `k6 version` prints no version is refused with what it printed', async () => {
    const r = await checkK6({ PATH: fakeK6('garbled', 'hello') });
    expect('error' in r && r.error).toMatch(/printed no k6 version \("hello"\)/);
  });

  test('conformance load --engine k6 with an old k6 exits 2 before anything starts', async () => {
    const saved = process.env.PATH;
    process.env.PATH = fakeK6('old-cli', 'k6 v0.48.0 (go1.21.4, linux/amd64)');
    const lines: string[] = [];
    try {
      const code = await loadCommand({ scenarios: ['trigger-limit'], engine: 'k6', rateLimitRps: 600, reportDir: join(root, 'never'), allowRemoteLoad: false, profile: 'short' }, { log: (s) => lines.push(s) });
      expect(code).toBe(2);
    } finally {
      process.env.PATH = saved;
    }
    expect(lines.join('\n')).toMatch(/--engine k6: .*k6 v0\.48\.0; the scripts need k6 ≥ v0\.57\.0/);
    expect(existsSync(join(root, 'never'))).toBe(false);
  });
});

describe('the k6 version is part of the load plan', () => {
  test('conformance load --engine k6 records what `k6 version` printed in load.json and each timeline; the bundle\'s load summary carries it', async () => {
    const reportDir = join(root, 'versioned');
    const saved = process.env.PATH;
    process.env.PATH = `${fakeK6('versioned-k6', NEW, WRITES_TIMELINE)}:${saved}`;
    const lines: string[] = [];
    try {
      const code = await loadCommand({ scenarios: ['trigger-limit'], engine: 'k6', rateLimitRps: 600, reportDir, allowRemoteLoad: false, profile: 'short' }, { log: (s) => lines.push(s) });
      expect(code, lines.join('\n')).not.toBe(2);
    } finally {
      process.env.PATH = saved;
    }
    expect(lines.find((l) => l.startsWith('Plan: '))).toContain('engine k6 1.3.0, profile short');
    const load = JSON.parse(readFileSync(join(reportDir, 'load.json'), 'utf8'));
    expect([load.engine, load.engineVersion, load.timelines[0].engineVersion]).toEqual(['k6', '1.3.0', '1.3.0']);
    expect(loadSummary(load)).toMatchObject({ engine: 'k6', engineVersion: '1.3.0', scenarios: [{ scenario: 'trigger-limit', engine: 'k6', engineVersion: '1.3.0' }] });
  });
});

describe('a k6 run yields a timeline only when it finished and wrote this run’s file', () => {
  test('k6 exiting 107 (script error) yields no verdict, even with an earlier timeline at the path', async () => {
    const file = join(root, 'crash', 'load-timeline-trigger-limit.json');
    mkdirSync(join(root, 'crash'), { recursive: true });
    staleTimeline(file);
    const k6 = join(fakeK6('crashes', NEW, 'exit 107'), 'k6');
    await expect(runScenarioK6(k6, plan, target, fixture, file)).rejects.toThrow(/k6 exited with 107 \(script error\) running trigger-limit: no verdict/);
    expect(existsSync(file)).toBe(false);
  });

  test('k6 exiting 0 without writing the timeline yields no verdict', async () => {
    const k6 = join(fakeK6('silent', NEW, 'exit 0'), 'k6');
    await expect(runScenarioK6(k6, plan, target, fixture, join(root, 'silent-out', 'tl.json'))).rejects.toThrow(/exited with 0 but wrote no timeline/);
  });

  test('a timeline of another run (another run id) is never judged', async () => {
    const k6 = join(fakeK6('copies-stale', NEW, `printf '{"runId":"an-earlier-run","startedAt":"%s"}' "$(date -u +%Y-%m-%dT%H:%M:%S.000Z)" > "$LOAD_TIMELINE_OUT"`), 'k6');
    await expect(runScenarioK6(k6, plan, target, fixture, join(root, 'stale-out', 'tl.json'))).rejects.toThrow(K6RunError);
    await expect(runScenarioK6(k6, plan, target, fixture, join(root, 'stale-out', 'tl.json'))).rejects.toThrow(/run id "an-earlier-run", not this run's/);
  });

  test('exit 99 (a k6 threshold crossed) with this run’s timeline is judged; the key is never on the command line', async () => {
    const k6 = join(fakeK6('thresholds', NEW, `echo "$@" > "$(dirname "$LOAD_TIMELINE_OUT")/argv"\n${WRITES_TIMELINE}\nexit 99`), 'k6');
    const file = join(root, 'ok-out', 'tl.json');
    const tl = await runScenarioK6(k6, plan, { ...target, apiKey: 'secret-key-123' }, fixture, file);
    expect(tl.plan).toEqual(plan);
    expect(tl.runId).toMatch(/^[0-9a-f-]{36}$/);
    const argv = (await import('node:fs')).readFileSync(join(root, 'ok-out', 'argv'), 'utf8');
    expect(argv).toMatch(/^run --quiet --address= .*notification-load\.ts$/m);
    expect(argv).not.toMatch(/secret-key-123/);
  });

  test('conformance load: a crashing k6 exits 2, and an earlier load.json in the report dir is removed, not reported again', async () => {
    const reportDir = join(root, 'report');
    mkdirSync(reportDir, { recursive: true });
    writeFileSync(join(reportDir, 'load.json'), '{"verdicts":[{"id":"RL-05","verdict":"pass"}]}');
    staleTimeline(join(reportDir, 'load-timeline-trigger-limit.json'));
    const saved = process.env.PATH;
    process.env.PATH = `${fakeK6('crashes-cli', NEW, 'exit 107')}:${saved}`;
    const lines: string[] = [];
    try {
      const code = await loadCommand({ scenarios: ['trigger-limit'], engine: 'k6', rateLimitRps: 600, reportDir, allowRemoteLoad: false, profile: 'short' }, { log: (s) => lines.push(s) });
      expect(code).toBe(2);
    } finally {
      process.env.PATH = saved;
    }
    expect(lines.join('\n')).toMatch(/conformance load: k6 exited with 107 \(script error\)/);
    expect(lines.join('\n')).not.toMatch(/RL-05 MUST pass/);
    expect(existsSync(join(reportDir, 'load.json'))).toBe(false);
    expect(existsSync(join(reportDir, 'load-timeline-trigger-limit.json'))).toBe(false);
  });
});
