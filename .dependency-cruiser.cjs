// The floors of the house (docs/ARCHITECTURE.md), guarded on every `npm test`: an import may only go down.
//   cli/                                   the command line: every command
//   mutation/                              the mutation run's vitest setup (beside cli/, on top: `npm run mutation`)
//   bench/                                 npm run bench:suite: times the commands from outside, as child processes
//   suites/ → fixtures/ → harness/ | load/ the suite runner and the load harness, side by side
//   certify/                               certification: its grade, the bundle, signing, verifying, the archive reader
//   report/ → config/                      what both use: verdicts, reports and their writers, redaction; settings
//   reference/ | schemas/ → requirements/  the reference, the wire formats, the rule catalog
// Dependency-cruiser 17.4.3 is pinned: 18.x needs Node.js 22, and this project supports Node.js 20.19.

const ROOMS = ['cli', 'mutation', 'bench', 'suites', 'fuzz', 'diff', 'fixtures', 'harness', 'load', 'certify', 'report', 'config', 'reference', 'schemas', 'requirements'];
/** A path pattern for the named rooms. */
const rooms = (...names) => `^(${names.join('|')})/`;
/** Every room but the named ones. */
const roomsBut = (...names) => rooms(...ROOMS.filter((r) => !names.includes(r)));
/** A floor rule: `room` never imports a path matching `forbidden`. */
const never = (name, room, forbidden, comment) => ({ name, comment, severity: 'error', from: { path: rooms(room) }, to: { path: forbidden } });

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle anywhere, type-only imports included: a cycle hides which module stands on which.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'cli-is-the-top-floor',
      comment: 'Only bin/ (and the tests) import cli/: a command fronts the rooms below, no room fronts a command.',
      severity: 'error',
      from: { pathNot: '^(cli|bin|test)/' },
      to: { path: rooms('cli') },
    },
    {
      name: 'mutation-is-a-top-floor',
      comment: 'Only Stryker (stryker.config.mjs) and the tests use mutation/: the product never runs in mutation mode.',
      severity: 'error',
      from: { pathNot: '^(mutation|test)/' },
      to: { path: rooms('mutation') },
    },
    never('mutation-starts-what-a-run-starts', 'mutation', rooms('cli', 'suites', 'fuzz', 'diff', 'fixtures', 'load'), 'mutation/ starts the reference and hands the suites their target as a run does (harness/, config/); it imports no suite.'),
    never('bench-times-from-outside', 'bench', roomsBut('bench'), 'bench/ times `conformance run` and `npm test` as a user runs them, in child processes: it imports no room.'),
    {
      name: 'bin-enters-through-cli',
      comment: 'bin/conformance.js only starts cli/main.ts.',
      severity: 'error',
      from: { path: '^bin/' },
      to: { path: roomsBut('cli') },
    },
    {
      name: 'suites-reach-the-target-through-fixtures',
      comment: 'A suite speaks HTTP through the api fixture only: no reference internals, no runner, no raw transport.',
      severity: 'error',
      from: { path: rooms('suites') },
      to: { path: [rooms('cli', 'load', 'certify', 'report', 'config', 'reference'), '^harness/(runner|http/transport)'] },
    },
    {
      name: 'suites-use-no-raw-http',
      comment: 'A suite never opens its own connection: every exchange goes through the recording api fixture.',
      severity: 'error',
      from: { path: rooms('suites') },
      to: { dependencyTypes: ['core', 'npm'], path: '^(node:)?(http|https|http2|net|tls|dgram)$|^undici$|^node_modules/undici/' },
    },
    never('fixtures-stand-on-the-harness', 'fixtures', rooms('cli', 'suites', 'fuzz', 'diff', 'load', 'certify', 'reference'), 'fixtures/ holds what a test receives; it builds on harness/, never on suites, commands, load or the reference.'),
    never('fuzz-stands-beside-the-suites', 'fuzz', rooms('cli', 'suites', 'diff', 'load'), 'fuzz/ drives the target through the harness and fixtures, as the suites do; only a command fronts it.'),
    never('diff-stands-beside-the-suites', 'diff', rooms('cli', 'suites', 'fuzz', 'load'), 'diff/ drives the target through the harness and fixtures, as the suites do; only a command fronts it.'),
    never('harness-never-reaches-up', 'harness', rooms('cli', 'suites', 'fuzz', 'diff', 'fixtures', 'load'), 'harness/ (the suite runner) stands below cli/, fixtures/ and suites/ and beside load/.'),
    never('load-never-reaches-up', 'load', rooms('cli', 'suites', 'fuzz', 'diff', 'fixtures', 'harness'), 'load/ stands below cli/ and beside harness/: what both need lives in report/, config/ or below.'),
    never('certify-stands-on-the-report', 'certify', rooms('cli', 'mutation', 'bench', 'suites', 'fuzz', 'diff', 'fixtures', 'harness', 'load', 'reference'), 'certify/ grades, packs, signs and verifies what a run reported: it reads the report model and runs nothing.'),
    never('report-is-shared-below-harness-and-load', 'report', rooms('cli', 'suites', 'fuzz', 'diff', 'fixtures', 'harness', 'load', 'certify', 'reference'), 'report/ serves both runners, so it knows neither of them (nor the reference).'),
    never('config-is-below-report', 'config', roomsBut('config', 'requirements', 'schemas'), 'config/ (settings and their resolution) stands on requirements/ and schemas/ only.'),
    never('reference-never-imports-the-suite', 'reference', roomsBut('reference', 'requirements'), 'The reference is an independent implementation: it may name rule IDs, nothing else of the suite.'),
    never('schemas-stand-on-the-ground-floor', 'schemas', roomsBut('schemas', 'requirements'), 'schemas/ describes the wire; it knows only the rule catalog.'),
    never('requirements-import-nothing', 'requirements', roomsBut('requirements'), 'The rule catalog is the foundation: the only source of rule IDs, importing no other room.'),
    {
      name: 'only-tests-import-tests',
      comment: 'test/ holds the harness\'s own tests; nothing the product runs depends on them.',
      severity: 'error',
      from: { pathNot: '^test/' },
      to: { path: '^test/' },
    },
    {
      name: 'every-module-lives-in-a-room',
      comment: 'Code outside the rooms (a new top-level folder) has no floor yet: add it to ROOMS and to docs/ARCHITECTURE.md.',
      severity: 'error',
      from: { pathNot: [rooms(...ROOMS), '^(bin|test)/', '^[^/]+$'] },
      to: {},
    },
    {
      name: 'no-unresolvable-imports',
      comment: 'An import that resolves to nothing is a typo or a missing dependency (k6 modules exist only inside k6).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^k6(/|$)' },
    },
  ],
  options: {
    // Type-only imports count: `import type` cycles and upward arrows are still part of the design.
    tsPreCompilationDeps: true,
    // node_modules is a symlink in worktrees: keep npm packages under node_modules/ instead of their real path.
    preserveSymlinks: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(reports|docs)/|^\\.' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.d.ts', '.json'], exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
