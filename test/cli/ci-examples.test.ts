// examples/ci: every job's conformance commands, run as the job runs them (in the suite's checkout, keys in
// CONFORMANCE_* variables) against a reference started here, each exiting as its comment says.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../report/suite-info.ts';
import { runCli, startCli, type CliResult } from '../hostile/run-cli.ts';
import { apartFromRoadOrPace } from '../hostile/road-or-pace.ts';

const CI = join(REPO_ROOT, 'examples/ci');
const KEY_FLAGS = /--(api-key|secondary-api-key|restricted-api-key|target)\b/;

interface Job {
  where: string;
  name: string;
  commands: string[];
}

function jobs(): Job[] {
  const github = readdirSync(join(CI, 'github-actions')).flatMap((file) => {
    const workflow = parse(readFileSync(join(CI, 'github-actions', file), 'utf8')) as { jobs: Record<string, { steps: { run?: string }[] }> };
    return Object.entries(workflow.jobs).map(([name, job]) => ({ where: `github-actions/${file}`, name, commands: job.steps.flatMap((s) => (s.run?.startsWith('npx conformance') ? [s.run] : [])) }));
  });
  const gitlab = Object.entries(parse(readFileSync(join(CI, 'gitlab-ci.yml'), 'utf8')) as Record<string, { script?: string[] }>)
    .filter(([name]) => !name.startsWith('.'))
    .map(([name, job]) => ({ where: 'gitlab-ci.yml', name, commands: (job.script ?? []).filter((c) => c.startsWith('npx conformance')) }));
  return [...github, ...gitlab];
}

/** The exit a command's comment promises here: its first code, or the one it gives without an OIDC identity (none here). */
function promisedExit(command: string): number {
  const texts = [join(CI, 'gitlab-ci.yml'), ...readdirSync(join(CI, 'github-actions')).map((f) => join(CI, 'github-actions', f))].map((f) => readFileSync(f, 'utf8'));
  const comment = texts.flatMap((t) => t.split('\n')).find((line) => line.includes(`${command}  # exit `))?.split('  # ')[1];
  if (!comment) throw new Error(`no "# exit N: …" comment on ${command}`);
  const withoutIdentity = /; (\d+) without an OIDC identity/.exec(comment);
  return Number(withoutIdentity?.[1] ?? /^exit (\d+)/.exec(comment)![1]);
}

describe('examples/ci', () => {
  const all = jobs();

  test('the GitHub Actions and GitLab CI jobs run the same commands, three jobs in all', () => {
    const byName = (where: string) => Object.fromEntries(all.filter((j) => j.where.startsWith(where)).map((j) => [j.name, j.commands]));
    expect(Object.keys(byName('gitlab')).sort()).toEqual(['candidate', 'certify', 'staging-gate']);
    expect(byName('github')).toEqual(byName('gitlab'));
  });

  test('keys and targets come from the environment, never from a command line', () => {
    for (const job of all) for (const command of job.commands) expect(command, `${job.where} ${job.name}`).not.toMatch(KEY_FLAGS);
    for (const file of readdirSync(join(CI, 'github-actions'))) {
      const env = Object.values((parse(readFileSync(join(CI, 'github-actions', file), 'utf8')) as { jobs: Record<string, { env: Record<string, string> }> }).jobs)[0]!.env;
      for (const key of ['CONFORMANCE_API_KEY', 'CONFORMANCE_SECONDARY_API_KEY', 'CONFORMANCE_RESTRICTED_API_KEY']) expect(env[key], `${file} ${key}`).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/);
    }
  });

  // why: each distinct job once (GitHub's and GitLab's are the same), each against a reference of its own, side by side
  const distinct = [...new Map(all.map((j) => [j.commands.join('\n'), j])).values()];
  test.concurrent.for(distinct.map((j) => [j.name, j] as const))('%s: each command exits as its comment says', async ([, job], { skip }) => {
    // why: 100/s with a 1-s window drains a bucket in a second, so the drains and the load take seconds, not minutes
    const reference = await startCli(['reference', '--trigger-rps', '100', '--window-seconds', '1']);
    try {
      const { baseUrl, regionalBaseUrl, apiKeys } = JSON.parse(reference.output) as { baseUrl: string; regionalBaseUrl: string; apiKeys: Record<string, string> };
      const env = {
        CONFORMANCE_TARGET: baseUrl,
        CONFORMANCE_REGIONAL_TARGET: regionalBaseUrl,
        CONFORMANCE_API_KEY: apiKeys.dev!,
        CONFORMANCE_SECONDARY_API_KEY: apiKeys.prod!,
        CONFORMANCE_RESTRICTED_API_KEY: apiKeys.restricted!,
        CONFORMANCE_TRIGGER_RPS: '100',
        CONFORMANCE_REPORT_DIR: mkdtempSync(join(tmpdir(), `cft-ci-${job.name}-`)),
        SIGSTORE_ID_TOKEN: '',
        ACTIONS_ID_TOKEN_REQUEST_URL: '',
      };
      for (const command of job.commands) {
        const args = command.replace(/^npx conformance /, '').split(/\s+/);
        // why: the full load profile lasts about 3 minutes; only its length is shortened here, its verdict stays the profile's
        if (args[0] === 'load' && !args.includes('--profile')) args.push('--duration', '40');
        const result: CliResult = await runCli(args, env);
        // why: a load this machine was too busy to send on schedule is honestly incomplete (exit 3): nothing measured, so skipped, not failed
        const starved = /^ {4}(the load generator fell behind its schedule .*)$/m.exec(result.stdout);
        if (args[0] === 'load' && result.code === 3 && starved) return skip(`${job.name}: ${starved[1]!.slice(0, 300)}`);
        // why: so is a run whose rules this machine was too busy to judge (a drain that could not outrun the refill):
        // its exit says a rule went unverified, for a reason that names the pace, and no rule failed
        if (args[0] === 'run' && result.code !== promisedExit(command)) {
          const report = JSON.parse(readFileSync(join(env.CONFORMANCE_REPORT_DIR, 'conformance.json'), 'utf8')) as { requirements: { id: string; verdict: string; tests: { status: string; message?: string }[] }[] };
          const { unjudged } = apartFromRoadOrPace(report.requirements);
          if (unjudged && !report.requirements.some((r) => r.verdict === 'fail')) return skip(`${job.name}: ${unjudged}`);
        }
        expect(result.code, `${job.where} ${job.name}: ${command}\n${result.stdout.slice(-1500)}\n${result.stderr}`).toBe(promisedExit(command));
      }
    } finally {
      await reference.stop();
    }
  });
});
