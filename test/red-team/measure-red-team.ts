// Measurement script (not a test): the whole suite against the embedded reference behind the deviating proxy, once per
// held-out deviation. Prints, per deviation, the verdict and the rules that failed; a violation is caught when a rule it
// breaks failed (MUST or SHOULD: a warning still names it), a permitted variation is wrongly judged when any MUST rule
// failed. Run: npm run bench:red-team [-- --only name,name]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReference } from '../../reference/index.ts';
import { startDeviatingProxy, type Deviation } from './deviating-proxy.ts';
import { DEVIATIONS } from './deviations.ts';

const CLI = fileURLToPath(new URL('../../bin/conformance.js', import.meta.url));
const args = process.argv.slice(2);
const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1]!.split(',')) : undefined;

interface Rule {
  id: string;
  level: string;
  verdict: string;
  tests: { name: string; status: string; message?: string }[];
}

async function runAgainst(deviation: Deviation) {
  const reference = await startReference({});
  const proxy = await startDeviatingProxy(deviation, { baseUrl: reference.baseUrl, regionalBaseUrl: reference.regionalBaseUrl! });
  const dir = mkdtempSync(join(tmpdir(), 'cft-red-team-'));
  const keys = ['--api-key', reference.apiKeys.dev, '--secondary-api-key', reference.apiKeys.prod, '--restricted-api-key', reference.apiKeys.restricted];
  try {
    const code = await new Promise<number | null>((resolve) => {
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONFORMANCE_') && !k.startsWith('VITEST')));
      const child = spawn(process.execPath, [CLI, 'run', '--target', proxy.url, '--regional-target', proxy.regionalUrl, ...keys, '--report-dir', dir], { env, stdio: 'ignore' });
      child.on('close', resolve);
    });
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { summary: { verdict: string }; requirements: Rule[] };
    return { code, report };
  } finally {
    await proxy.close();
    await reference.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

let caught = 0;
let violations = 0;
let permitted = 0;
let wronglyFailed = 0;
for (const deviation of DEVIATIONS.filter((d) => !only || only.has(d.name))) {
  const started = performance.now();
  const { code, report } = await runAgainst(deviation);
  // a SHOULD rule's failure is a warning: it still names the deviation
  const failed = report.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'warn');
  const failedMust = failed.filter((r) => r.level === 'MUST' && r.verdict === 'fail');
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const failedList = failed.map((r) => `${r.id}${r.level === 'MUST' ? '' : `(${r.level})`}`).join(' ') || 'none';
  if (deviation.kind === 'violation') {
    violations += 1;
    const hit = failed.some((r) => deviation.breaks.includes(r.id));
    if (hit) caught += 1;
    console.log(`${hit ? 'CAUGHT ' : 'MISSED '} ${deviation.name} (breaks ${deviation.breaks.join(', ')}): exit ${code}, ${report.summary.verdict}, ${seconds} s; failed: ${failedList}`);
    if (!hit) for (const id of deviation.breaks) console.log(`  ${id}: ${report.requirements.find((r) => r.id === id)?.verdict ?? 'not in the report'}`);
  } else {
    permitted += 1;
    if (failedMust.length) wronglyFailed += 1;
    console.log(`${failedMust.length ? 'WRONG  ' : 'ALLOWED'} ${deviation.name} (permitted): exit ${code}, ${report.summary.verdict}, ${seconds} s; failed: ${failedList}`);
    for (const r of failedMust) console.log(`  ${r.id}: ${(r.tests.find((t) => t.status === 'failed')?.message ?? '').split('\n')[0]!.slice(0, 240)}`);
  }
}
console.log(`violations caught: ${caught} of ${violations}; permitted variations failed at MUST level: ${wronglyFailed} of ${permitted}`);
