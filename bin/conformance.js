#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader: no build step, so `npx conformance` works right after `npm install`.
import { register } from 'tsx/esm/api';

// A closed pipe on stdout (`| head`) must not kill the run before its report is written.
process.stdout.on('error', () => undefined);
// The two commands that run the suites load vitest's 300-odd modules: loaded before tsx's hooks are registered, they load
// in a third of the time (the hooks see every module); they are cached for the TypeScript that imports them later.
const SUITE_COMMANDS = ['run', 'prove'];
if (SUITE_COMMANDS.includes(process.argv[2] ?? '')) await import('vitest/node');
register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2), process.env);
// An interrupted command has written its reports; whatever it abandoned (a test past its grace period) must not keep the process alive.
if (process.exitCode === 130) process.exit(130);
