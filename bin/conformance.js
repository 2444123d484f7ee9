#!/usr/bin/env node
// The `conformance` command: the TypeScript CLI, bundled on first start (cli-bundle.mjs) and, where that cannot be
// built, run from its sources through tsx's loader. No build step either way: `npx conformance` works right after `npm install`.
import { bundledCli } from './cli-bundle.mjs';

// A closed pipe on stdout (`| head`) must not kill the run before its report is written.
process.stdout.on('error', () => undefined);
const bundle = await bundledCli();
if (!('url' in bundle)) {
  // The two commands that run the suites load vitest's 300-odd modules: loaded before tsx's hooks are registered,
  // they load in a third of the time (the hooks see every module); they are cached for the TypeScript that imports them later.
  if (['run', 'prove'].includes(process.argv[2] ?? '')) await import('vitest/node');
  (await import('tsx/esm/api')).register();
}
const { main } = await import('url' in bundle ? bundle.url : '../cli/main.ts');
process.exitCode = await main(process.argv.slice(2), process.env);
// An interrupted command has written its reports; whatever it abandoned (a test past its grace period) must not keep the process alive.
if (process.exitCode === 130) process.exit(130);
