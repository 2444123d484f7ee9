// Stryker reporter plugin: prints the mutation run's plan before any mutant runs — how many mutants are static (each
// runs every test: the costly kind), how many run only the tests that cover them, how many no test reaches, and how
// many come from the incremental file. The numbers docs/mutation-testing.md reports.
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

class PlanSummaryReporter {
  onMutationTestingPlanReady({ mutantPlans }) {
    const count = { total: mutantPlans.length, early: 0, static: 0, perTest: 0, noCoverage: 0 };
    let estimatedMs = 0;
    for (const { plan, mutant, netTime, runOptions } of mutantPlans) {
      if (plan === 'EarlyResult') count.early++;
      else if (mutant.static) count.static++;
      else if (runOptions.testFilter?.length === 0) count.noCoverage++;
      else count.perTest++;
      if (plan === 'Run') estimatedMs += netTime ?? 0;
    }
    console.log(
      `Mutation plan: ${count.total} mutants — ${count.static} static (run every test), ${count.perTest} run only their covering tests, ` +
        `${count.noCoverage} not covered, ${count.early} already decided (ignored, or kept from the incremental file); ` +
        `net test time of the runs ${Math.round(estimatedMs / 1000)} s`,
    );
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'plan-summary', PlanSummaryReporter)];
