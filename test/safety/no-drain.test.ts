// --no-drain: no test exhausts a rate-limit bucket of a shared target; those tests are not verified, and say why.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { resolveSettings } from '../../config/resolve-settings.ts';
import { startReference } from '../../reference/index.ts';
import { runCli } from '../hostile/run-cli.ts';
import { apartFromRoadOrPace } from '../hostile/road-or-pace.ts';

// The rules whose tests exhaust the trigger or the bulk-subscriber bucket (docs/running.md, staging safety).
const DRAINING_RULES = ['RL-04', 'RL-06', 'RL-07', 'RL-08', 'RL-09'];

/** Forwards to the reference and counts what a shared environment would feel: triggers sent, 429s answered. */
async function countingProxy(target: string): Promise<{ url: string; seen: { requests: number; triggers: number; throttled: number }; server: Server }> {
  const seen = { requests: 0, triggers: 0, throttled: 0 };
  const server = createServer((req, res) => {
    seen.requests++;
    if (req.method === 'POST' && req.url!.startsWith('/v1/events/trigger')) seen.triggers++;
    const upstream = request(new URL(req.url!, target), { method: req.method, headers: req.headers }, (answer) => {
      if (answer.statusCode === 429) seen.throttled++;
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    // A client or a target that hangs up mid-answer (the run ending) is not this test's concern.
    for (const stream of [req, res, upstream]) stream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, seen, server };
}

/** A run through a counting proxy to a reference of its own (the tests run at once), both closed when the test ends. */
async function runThroughProxy(extra: string[], { onTestFinished }: TestContext) {
  const reference = await startReference();
  const counting = await countingProxy(reference.baseUrl);
  onTestFinished(async () => {
    closeProxy(counting.server);
    await reference.close();
  });
  const dir = mkdtempSync(join(tmpdir(), 'cft-no-drain-'));
  const { apiKeys } = reference;
  const result = await runCli(['run', '--target', counting.url, '--api-key', apiKeys.dev, '--secondary-api-key', apiKeys.prod, '--report-dir', dir, ...extra]);
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { requirements: { id: string; verdict: string; reason?: string; tests: { status: string; message?: string }[] }[] };
  return { ...result, seen: counting.seen, byId: Object.fromEntries(report.requirements.map((r) => [r.id, r])) };
}

function closeProxy(proxy: Server): void {
  proxy.closeAllConnections();
  proxy.close();
}

describe.concurrent('--no-drain', () => {
  it('reports every draining test not-verified with its reason before a single trigger is sent', async (context) => {
    const { expect } = context;
    const onlyDraining = DRAINING_RULES.filter((id) => id !== 'RL-04');
    const run = await runThroughProxy(['--no-drain', '--rules', onlyDraining.join(',')], context);
    expect(run.stdout).toContain('no drain');
    for (const id of onlyDraining) expect(run.byId[id], id).toMatchObject({ verdict: 'not-verified', reason: expect.stringContaining('--no-drain') as string });
    expect(run.seen).toMatchObject({ triggers: 0, throttled: 0 });
  });

  it('a whole run with it throttles nobody: not one 429, and every rule that needs a drain says so', async (context) => {
    const { expect } = context;
    const run = await runThroughProxy(['--no-drain'], context);
    for (const id of DRAINING_RULES) expect(run.byId[id], id).toMatchObject({ verdict: 'not-verified', reason: expect.stringContaining('--no-drain') as string });
    expect(run.seen.triggers).toBeGreaterThan(100);
    expect(run.seen.throttled).toBe(0);
  });

  it('without it, a draining rule does drain: the counting proxy sees the 429s', async (context) => {
    const { expect } = context;
    // why: RL-07 has tests of its own only; RL-04 is also checked on every exchange and would run every suite
    const run = await runThroughProxy(['--rules', 'RL-07'], context);
    const { unjudged } = apartFromRoadOrPace([run.byId['RL-07']!]);
    if (unjudged) return context.skip(unjudged);
    expect(run.byId['RL-07']!.verdict, run.byId['RL-07']!.reason).toBe('pass');
    expect(run.seen.throttled).toBeGreaterThan(0);
  });

  it('is a setting of the config file too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cft-no-drain-config-'));
    const file = join(dir, 'conformance.yaml');
    writeFileSync(file, 'run:\n  noDrain: true\n');
    expect(resolveSettings({ configFile: file }).run.noDrain).toBe(true);
    expect(resolveSettings({}).run.noDrain).toBe(false);
  });
});
