#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader: no build step, so `npx conformance` works right after `npm install`.
import { register } from 'tsx/esm/api';

// A closed pipe on stdout (`| head`) must not kill the run before its report is written.
process.stdout.on('error', () => undefined);
register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2), process.env);
