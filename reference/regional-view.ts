// Faults that break one behaviour on the regional base only: there each acts as the named fault of the main base,
// so VER-02 has to run the rule on the regional base to see it.
import type { App } from './context.ts';
import type { FaultName } from './faults.ts';

const ACTS_AS: Partial<Record<FaultName, FaultName>> = {
  'regional-no-ratelimit-headers': 'no-ratelimit-headers',
  'regional-no-recipient-cap': 'recipient-cap-off',
};

/** The application as the regional listener sees it: shared state, plus the regional-only faults switched on. */
export function regionalView(app: App): App {
  const regional = Object.create(app) as App;
  regional.has = (fault) => app.has(fault) || Object.entries(ACTS_AS).some(([own, as]) => as === fault && app.has(own as FaultName));
  return regional;
}
