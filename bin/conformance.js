#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader: no build step, so `npx conformance` works right after `npm install`.
import { register } from 'tsx/esm/api';

// A closed pipe on stdout (`| head`) must not kill the run before its report is written.
process.stdout.on('error', () => undefined);
register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2), process.env);
// An interrupted command has written its reports; whatever it abandoned (a test past its grace period) must not keep the process alive.
if (process.exitCode === 130) process.exit(130);
