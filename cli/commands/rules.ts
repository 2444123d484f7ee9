// `conformance rules`: every rule the suite judges by, with how it is verified (the text of docs/RULES.md).
import type { Command } from 'commander';
import { EXIT } from '../cli-error.ts';
import { addFormatOptions, outputOf, printJson, type FormatFlags } from '../output-format.ts';

export function registerRules(program: Command, setExit: (code: number) => void): void {
  addFormatOptions(program.command('rules'))
    .description('print every rule (ID, level, area, text), how the suite verifies it and what a target may declare off: docs/RULES.md')
    .action(async (flags: FormatFlags) => {
      if (outputOf(flags).json) {
        const { REQUIREMENTS, SPEC_VERSION } = await import('../../requirements/index.ts');
        printJson({ command: 'rules', specVersion: SPEC_VERSION, rules: REQUIREMENTS });
        return setExit(EXIT.ok);
      }
      // Loaded here, not at start: the document reads the suites' sources.
      const { rulesDocument } = await import('../explain/rules-document.ts');
      process.stdout.write(rulesDocument());
      setExit(EXIT.ok);
    });
}
