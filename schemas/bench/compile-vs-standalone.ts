// Measures start-up cost of the two ways to get validators: compile every schema with Ajv, or import the standalone code.
// Each sample is a fresh Node process (module caches would otherwise hide the cost). Run:
//   node --import tsx schemas/bench/compile-vs-standalone.ts [samples]
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const samples = Number(process.argv[2] ?? 7);

// each probe prints the milliseconds from before its imports until every validator is ready
const probes = {
  compile: `
    const t0 = performance.now();
    const { createAjv } = await import('./schemas/ajv-factory.ts');
    const { SCHEMA_NAMES, STRICT_PREFIX } = await import('./schemas/names.ts');
    const ajv = createAjv();
    for (const n of SCHEMA_NAMES) { ajv.getSchema(n); ajv.getSchema(STRICT_PREFIX + n); }
    console.log(performance.now() - t0);`,
  standalone: `
    const t0 = performance.now();
    const v = await import('./schemas/standalone/validators.generated.js');
    if (Object.keys(v).length !== 54) throw new Error('unexpected export count');
    console.log(performance.now() - t0);`,
} as const;

function sample(code: string): { inProcess: number; wall: number } {
  const t0 = performance.now();
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
  return { inProcess: Number(out.trim()), wall: performance.now() - t0 };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const results: Record<string, { inProcess: number; wall: number }> = {};
for (const [name, code] of Object.entries(probes)) {
  sample(code); // warm the OS file cache and tsx's transform cache
  const runs = Array.from({ length: samples }, () => sample(code));
  results[name] = { inProcess: median(runs.map((r) => r.inProcess)), wall: median(runs.map((r) => r.wall)) };
}
console.log(`median of ${samples} fresh processes (ms): ready = imports + validators, wall = whole process`);
for (const [name, r] of Object.entries(results)) {
  console.log(`${name.padEnd(11)} ready ${r.inProcess.toFixed(1).padStart(7)}   wall ${r.wall.toFixed(1).padStart(7)}`);
}
const c = results.compile!, s = results.standalone!;
console.log(`faster: ${s.inProcess < c.inProcess ? 'standalone' : 'compile'} (${(c.inProcess / s.inProcess).toFixed(1)}x on ready time)`);
