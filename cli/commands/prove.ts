// `conformance prove`: the fault × rule kill table — shows every test can fail, and the clean reference passes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { FAULTS, type FaultName } from '../../reference/faults.ts';
import { collect } from '../options.ts';
import { printLine } from '../terminal.ts';
import { parseFaults } from './reference.ts';

export function registerProve(program: Command, env: Record<string, string | undefined>, setExit: (code: number) => void): void {
  program
    .command('prove')
    .description('run each rule’s tests against the reference with each fault that breaks it; every fault must be caught')
    .option('--fault <name>', 'only this fault (repeatable); default: the whole catalog', collect, [])
    .option('--report-dir <dir>', 'where fault-proof.json is written', 'reports')
    .option('--clean-report <file>', "take the clean reference's verdicts from this conformance.json (a run of this suite against the embedded reference, as `npm test` makes just before) instead of running them again")
    .action(async (opts: { fault: string[]; reportDir: string; cleanReport?: string }) => {
      const [{ resolveSettings }, { proveFaults }, { fuzzProver }, { diffProver }, { readCleanReport }] = await Promise.all([
        import('../../config/resolve-settings.ts'),
        import('../../harness/runner/fault-proof.ts'),
        import('../../fuzz/fuzz-proof.ts'),
        import('../../diff/diff-proof.ts'),
        import('../../harness/runner/clean-report.ts'),
      ]);
      const faults = opts.fault.length > 0 ? parseFaults(opts.fault) : (Object.keys(FAULTS) as FaultName[]);
      const settings = resolveSettings({ env, flags: { 'run.reportDir': opts.reportDir } });
      const print = printLine;
      const started = Date.now();
      const clean = opts.cleanReport === undefined ? undefined : readCleanReport(opts.cleanReport);
      if (clean && 'unusable' in clean) print(`--clean-report: ${clean.unusable}; the clean reference runs here instead`);
      const proof = await proveFaults(settings, faults, print, { fuzz: fuzzProver(settings), diff: diffProver(settings) }, clean && !('unusable' in clean) ? clean : undefined);
      mkdirSync(opts.reportDir, { recursive: true });
      const file = join(opts.reportDir, 'fault-proof.json');
      writeFileSync(file, `${JSON.stringify(proof, null, 2)}\n`);

      const survivors = proof.rows.filter((r) => !r.killed);
      print('');
      for (const fp of proof.falsePositives) print(`FALSE POSITIVE on the clean reference: ${fp.id} is ${fp.verdict}`);
      for (const r of survivors) print(`SURVIVED: ${r.fault} (${r.description}) — ${r.rules.map((x) => `${x.id}=${x.verdict}`).join(', ')}${r.mustFailures?.length ? `; a deployed-only fault failed MUST rule(s) ${r.mustFailures.join(', ')}` : ''}`);
      if (proof.uncoveredMustRules.length > 0) print(`MUST rules no fault breaks: ${proof.uncoveredMustRules.join(', ')}`);
      const overStrict = proof.permittedTogether?.mustFailures ?? [];
      if (overStrict.length > 0) print(`FALSE VERDICT: with the ${proof.permittedTogether!.faults.length} permitted variations on together (${proof.permittedTogether!.faults.join(', ')}), MUST rule(s) failed: ${overStrict.join(', ')}`);
      for (const e of proof.errors) print(`ERROR ${e}`);
      const ok = survivors.length === 0 && proof.falsePositives.length === 0 && proof.uncoveredMustRules.length === 0 && overStrict.length === 0 && proof.errors.length === 0;
      print(`${proof.rows.length - survivors.length} of ${proof.rows.length} faults killed; ${proof.falsePositives.length} false positives; ${((Date.now() - started) / 1000).toFixed(1)} s`);
      print(`Kill table: ${file}`);
      print(`faults: ${proof.rows.length - survivors.length} passed, ${survivors.length + proof.falsePositives.length + (overStrict.length > 0 ? 1 : 0)} failed`);
      setExit(ok ? 0 : 1);
    });
}
