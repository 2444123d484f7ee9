// `conformance rules`: every rule the suite judges by, with how it is verified (the text of docs/RULES.md); with
// --inventory the behaviour inventory (docs/INVENTORY.md); with --check-inventory what the inventory lacks.
import type { Command } from 'commander';
import { EXIT } from '../cli-error.ts';
import { addFormatOptions, outputOf, printJson, type FormatFlags } from '../output-format.ts';

export function registerRules(program: Command, setExit: (code: number) => void): void {
  addFormatOptions(program.command('rules'))
    .description('print every rule (ID, level, area, text), how the suite verifies it and what a target may declare off: docs/RULES.md')
    .option('--inventory', 'print the behaviour inventory instead: every statement of the spec with its rules and tests (docs/INVENTORY.md)')
    .option('--check-inventory', 'list statements of the spec the inventory lacks and test references no test title matches; exit 1 when there is one')
    .action(async (options: FormatFlags & { inventory?: boolean; checkInventory?: boolean }) => {
      // Loaded here, not at start: the documents read the suites' sources.
      if (options.checkInventory) {
        const { inventoryCoverage, inventoryProblems } = await import('../explain/inventory-coverage.ts');
        const { coverageLine } = await import('../explain/inventory-document.ts');
        const coverage = inventoryCoverage();
        const problems = inventoryProblems(coverage);
        process.stdout.write(`${[...problems, `${problems.length === 0 ? 'complete' : `${problems.length} problem(s)`}: ${coverageLine(coverage)}`].join('\n')}\n`);
        return setExit(problems.length === 0 ? EXIT.ok : EXIT.failed);
      }
      if (options.inventory) {
        const { inventoryDocument } = await import('../explain/inventory-document.ts');
        process.stdout.write(inventoryDocument());
        return setExit(EXIT.ok);
      }
      if (outputOf(options).json) {
        const { REQUIREMENTS, SPEC_VERSION } = await import('../../requirements/index.ts');
        printJson({ command: 'rules', specVersion: SPEC_VERSION, rules: REQUIREMENTS });
        return setExit(EXIT.ok);
      }
      const { rulesDocument } = await import('../explain/rules-document.ts');
      process.stdout.write(rulesDocument());
      setExit(EXIT.ok);
    });
}
