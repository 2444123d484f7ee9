// `conformance explain RULE-ID`: from a rule ID to its text, tests, schemas, reference code and faults.
import type { Command } from 'commander';
import { isRuleId } from '../../requirements/index.ts';
import { EXIT } from '../cli-error.ts';

export function registerExplain(program: Command, setExit: (code: number) => void): void {
  program
    .command('explain')
    .description('print a rule: its level and text, the tests that judge it (file:line), the schemas it checks, the reference code that implements it and the faults that break it')
    .argument('<rule>', 'a rule ID of RULES.md, e.g. TRIG-02 (any case)')
    .action(async (input: string) => {
      // Loaded here, not at start: the explanation reads the suites, schemas and reference sources.
      const [{ closestRuleIds }, { printExplanation }, { explainRule }] = await Promise.all([
        import('../explain/closest-ids.ts'),
        import('../explain/print-explanation.ts'),
        import('../explain/rule-explanation.ts'),
      ]);
      const id = input.trim().toUpperCase();
      if (!isRuleId(id)) {
        process.stderr.write(`conformance: unknown rule "${input}"; closest known: ${closestRuleIds(id).join(', ')}\n`);
        return setExit(EXIT.usage);
      }
      process.stdout.write(`${printExplanation(explainRule(id))}\n`);
      setExit(EXIT.ok);
    });
}
