// `conformance verify-bundle FILE`: re-checks a certification bundle; exit 0 when every check holds, 1 otherwise.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { Check } from '../../report/verify-bundle.ts';
import { EXIT, UsageError } from '../cli-error.ts';

export function registerVerifyBundle(program: Command, setExit: (code: number) => void): void {
  program
    .command('verify-bundle')
    .description('re-check a certification bundle: SHA-256 manifest, every rule present, summary consistent with the verdicts')
    .argument('<file>', 'the .tar.gz written by `conformance run --bundle`')
    .action(async (file: string) => {
      if (!existsSync(file)) throw new UsageError(`no such bundle: ${file}`);
      const { readBundle, verifyBundle } = await import('../../report/verify-bundle.ts');
      const print = (line: string) => process.stdout.write(`${line}\n`);
      let checks: Check[];
      try {
        checks = verifyBundle(readBundle(file));
      } catch (error) {
        checks = [{ ok: false, what: `the bundle is a readable tar.gz archive (${(error as Error).message})` }];
      }
      for (const c of checks) print(`${c.ok ? '✓' : '✗'} ${c.what}`);
      const failed = checks.filter((c) => !c.ok).length;
      print(failed === 0 ? `VALID: ${checks.length} checks hold (${file})` : `INVALID: ${failed} of ${checks.length} checks failed (${file})`);
      setExit(failed === 0 ? EXIT.ok : EXIT.failed);
    });
}
