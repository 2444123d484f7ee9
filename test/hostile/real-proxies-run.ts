// One `conformance run` against a fresh reference behind a real proxy (nginx or HAProxy): shared by the test and by hand.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference } from '../../reference/index.ts';
import { startRealProxy, type ProxyKind } from './real-proxies.ts';
import { runCli, type CliResult } from './run-cli.ts';

export interface ProxiedRun extends CliResult {
  report: { summary: { verdict: string }; requirements: { id: string; verdict: string; reason?: string; tests: { name: string; status: string; message?: string }[]; observations?: unknown }[] };
}

export async function runBehindRealProxy(kind: ProxyKind, args: string[], env: Record<string, string> = {}): Promise<ProxiedRun> {
  const reference = await startReference({});
  const proxy = await startRealProxy(kind, new URL(reference.baseUrl).host);
  const dir = mkdtempSync(join(tmpdir(), `cft-${kind}-run-`));
  const keys = ['--api-key', reference.apiKeys.dev, '--secondary-api-key', reference.apiKeys.prod, '--restricted-api-key', reference.apiKeys.restricted];
  try {
    const result = await runCli(['run', '--target', proxy.url, '--regional-target', reference.regionalBaseUrl!, ...keys, '--report-dir', dir, ...args], env);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ProxiedRun['report'];
    return { ...result, report };
  } finally {
    await proxy.close();
    await reference.close();
  }
}

// By hand: node --import tsx test/hostile/real-proxies-run.ts nginx RL-01,ERR-05,ERR-06
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const [kind, rules] = process.argv.slice(2) as [ProxyKind, string];
  const run = await runBehindRealProxy(kind, ['--rules', rules ?? 'RL-01,ERR-05,ERR-06']);
  console.log(run.stdout);
  for (const r of run.report.requirements.filter((x) => (rules ?? 'RL-01,ERR-05,ERR-06').split(',').includes(x.id))) console.log(r.id, r.verdict, r.reason ?? '', JSON.stringify(r.tests.filter((t) => t.message).map((t) => t.message!.slice(0, 300))));
}
