#!/usr/bin/env node
// The `conformance` command: the TypeScript CLI, bundled on first start (cli-bundle.mjs) and, where that cannot be
// built, run from its sources through tsx's loader. No build step either way: `npx conformance` works right after `npm install`.
import { bundledCli } from './cli-bundle.mjs';

// A closed pipe on stdout (`| head`) must not kill the run before its report is written.
process.stdout.on('error', () => undefined);
const args = process.argv.slice(2);
// why: what is bundled, signed or verified runs only as the sources build now (a fresh build, 1 s), never from the cache alone
const certifying = ['bundle', 'verify-bundle'].includes(args[0] ?? '') || args.some((a) => /^--(bundle|sign|sign-key)(=|$)/.test(a));
const bundle = await bundledCli(undefined, { verify: certifying });
if (bundle.replaced) process.stderr.write(`conformance: ${bundle.replaced}: rebuilt from the sources, and that build runs\n`);
// what runs, for the report's provenance (report/suite-info.ts): the bundle and how its bytes were checked, or the sources
globalThis[Symbol.for('notification-api-conformance.running-code')] = 'url' in bundle ? { from: 'bundle', sha256: bundle.sha256, checked: bundle.checked } : { from: 'sources' };
if (!('url' in bundle)) {
  // The two commands that run the suites load vitest's 300-odd modules: loaded before tsx's hooks are registered,
  // they load in a third of the time (the hooks see every module); they are cached for the TypeScript that imports them later.
  if (['run', 'prove'].includes(args[0] ?? '')) await import('vitest/node');
  (await import('tsx/esm/api')).register();
}
const { main } = await import('url' in bundle ? bundle.url : '../cli/main.ts');
process.exitCode = await main(args, process.env);
// An interrupted command has written its reports; whatever it abandoned (a test past its grace period) must not keep the process alive.
if (process.exitCode === 130) process.exit(130);
