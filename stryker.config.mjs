// `npm run mutation`: Stryker mutates the reference's behaviour code and runs the conformance suites against each
// mutant. Not part of `npm test` or CI: a full run takes long (see docs/mutation-testing.md).
// Pinned at 9.6.1 with its vitest runner: Stryker 10.x requires Node.js 22, this project supports Node.js ≥ 20.19.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // mutation/vitest.config.ts: the suites with the reference started inside the worker, judged as a run judges.
  vitest: { configFile: 'mutation/vitest.config.ts', related: false },
  coverageAnalysis: 'perTest',
  plugins: ['@stryker-mutator/vitest-runner', './mutation/fault-switch-ignorer.mjs', './mutation/plan-summary-reporter.mjs', './mutation/survivors-reporter.mjs'],
  // Fault switches (`app.has('…')`) and the code only they reach: equivalent with no fault on; `conformance prove`
  // shows each fault is noticed. See mutation/fault-switch-ignorer.mjs.
  ignorers: ['fault-switch'],
  mutate: [
    // The eight operations and the cross-cutting rules: routes, validation, rate limiter, idempotency, SSRF guard,
    // masks, auth, errors, store. routes/ holds the spec's eight operations only (and what they share with provisioning).
    // (reference/idempotency-ttl.ts too: its 24-h mutants survive here, where the long checks are off, and are killed
    // by mutation/stryker.long-checks.config.mjs, which `npm run mutation` runs first.)
    'reference/*.ts',
    'reference/routes/*.ts',
    // Not matched above, so not mutated — reference/provisioning/: the provisioning-only operations (provisioning.md:
    // create/read/delete subscribers, topics, layouts, integrations, agents, variables, workflows, bulk trigger, bulk
    // subscribers). The suite uses them to set up state; no rule of the spec judges them, so a mutant there says
    // nothing about the suite's power (it shows up as a failed setup step at most).
    // The fault catalog: data naming the faults, not behaviour of the service.
    '!reference/faults.ts',
    // The throughput benchmark: measures the reference, is no part of it.
    '!reference/bench/**',
    // Server plumbing the spec does not cover: builds the parts, opens the listeners, closes them, lists the
    // inventory for the harness's own leak tests. The behaviour it wires is mutated in each part (the rate limiter's
    // rates and window in reference/rate-limit-config.ts; objectBody in reference/context.ts).
    '!reference/index.ts',
  ],
  incremental: true,
  // Committed, so a change to one route file reruns only its mutants. Stryker sees a changed suite file (it reruns the
  // mutants its tests cover, but keeps static mutants' verdicts) and nothing of fixtures/, harness/, schemas/ or
  // mutation/: after such a change run with `--force` (docs/mutation-testing.md).
  incrementalFile: 'mutation/stryker-incremental.json',
  // plan-summary (mutation/plan-summary-reporter.mjs): static / per-test / not-covered counts before the mutants run.
  // event-recorder: each mutant's result as it comes (reports/mutation/events/), so a stopped run still tells its survivors.
  // survivors (mutation/survivors-reporter.mjs): every survivor held against the ledger of equivalents in
  // docs/mutation-survivors.md — both scores, and each survivor not accounted for (reports/mutation/survivors.json).
  reporters: ['progress', 'clear-text', 'json', 'html', 'plan-summary', 'event-recorder', 'survivors'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  tempDirName: '.stryker-tmp',
  // A mutant's run is mostly waiting (the reference's 150 ms keyed writes, rate-limit refills): four runners left the
  // two cores half idle over a run from scratch (load average 0.7–1.4), so two cores take six.
  concurrency: 6,
  timeoutMS: 20_000,
  timeoutFactor: 2,
  // What the sandbox does not need: earlier reports and git's own data.
  ignorePatterns: ['reports', '.stryker-tmp', 'allure-results', 'allure-report'],
  cleanTempDir: 'always',
};
