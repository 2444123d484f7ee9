// The long-checks pass of `npm run mutation`: the mutants of the code whose effect only shows over time —
// how long the idempotency store keeps a key (reference/idempotency-ttl.ts) — against the suites with the long checks
// on (IDEM-02's repeat 25 s later). The main pass mutates that file too, with the long checks off: every test it covers
// would wait 25 s per mutant, hours for the whole reference. Its survivors there that this pass kills are accounted for
// by mutation/survivor-ledger.mjs, which reads this pass's report (reports/mutation/long-checks/mutation.json).
import main from '../stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...main,
  vitest: { ...main.vitest, configFile: 'mutation/vitest.long-checks.config.ts' },
  mutate: ['reference/idempotency-ttl.ts'],
  incrementalFile: 'mutation/stryker-long-checks-incremental.json',
  // Its own report; the survivors reporter is the main pass's (it reads this one).
  reporters: ['progress', 'clear-text', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/long-checks/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/long-checks/mutation.html' },
  // The mutants are constants read at load (static): each runs every test, the long check's 25 s wait with them.
  timeoutMS: 60_000,
};
