// Name and version of this suite as reports show them, read once from package.json; the digest of its files against
// its release manifest (suite-release.ts), which alone decides whether it is a released version; and, when it runs
// from a git checkout, which commit (for information).
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SHIPPED_DIRS, SHIPPED_FILES, suiteRelease } from './suite-release.ts';

/** The checkout this suite runs from (suites, package.json, git). */
export const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

export const SUITE_NAME = pkg.name;
export const SUITE_VERSION = pkg.version;

export interface SuiteSource {
  /** The commit of the checkout the suite runs from; null when it is installed from a package (no checkout of its own). */
  commit: string | null;
  /** The shipped files of the checkout differ from that commit (changed, or untracked and not ignored): a report dir elsewhere in it does not count. */
  dirty: boolean;
  /** The release tag of this version (v<version>) when it points at that commit. */
  releaseTag: string | null;
  /** The digest of the suite's shipped files (`sha256:…`, suite-release.ts): what it is, whatever git says. */
  digest?: string;
  /** The release manifest that came with those files: its version and the digest of its file list; null: none. */
  release?: { version: string; digest: string } | null;
  /** Environment variables that load code the release does not hold (NODE_OPTIONS --require, …), as set for the run. */
  injected?: Record<string, string>;
  /** The code that ran: the TypeScript sources (which the digest covers), or the CLI bundle built from them and how its bytes were checked. */
  code?: RunningCode;
}

/**
 * `sources`: the TypeScript files themselves (tsx, vitest). `bundle`: bin/cli-bundle.mjs's build of them, its digest,
 * and `built` (built by this start, or byte for byte a build by this start) or `recorded` (its bytes are those recorded
 * at its build); `unchecked`: bundled code started other than through bin/conformance.js, whose bytes nobody checked.
 */
export type RunningCode = { from: 'sources' } | { from: 'bundle'; sha256: string; checked: 'built' | 'recorded' } | { from: 'bundle'; checked: 'unchecked' };

/** Set by esbuild in the CLI bundle (bin/cli-bundle.mjs `define`); undefined in the sources. */
declare const __CONFORMANCE_BUNDLED__: boolean | undefined;

/** What bin/conformance.js found when it started the code: the bundle it ran and how it checked its bytes. */
const RUNNING_CODE = Symbol.for('notification-api-conformance.running-code');

export function runningCode(): RunningCode {
  if (typeof __CONFORMANCE_BUNDLED__ === 'undefined') return { from: 'sources' };
  const told = (globalThis as Record<symbol, unknown>)[RUNNING_CODE] as { from?: unknown; sha256?: unknown; checked?: unknown } | undefined;
  if (told?.from === 'bundle' && typeof told.sha256 === 'string' && (told.checked === 'built' || told.checked === 'recorded')) return { from: 'bundle', sha256: told.sha256, checked: told.checked };
  return { from: 'bundle', checked: 'unchecked' };
}

/** Variables through which code outside the suite's files runs inside it: Node's preloads and loaders, the dynamic linker's. */
export const CODE_INJECTING_ENV = ['NODE_OPTIONS', 'NODE_PATH', 'NODE_LOADER', 'NODE_REPL_EXTERNAL_MODULE', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES'] as const;

/** The code-injecting variables set in `env`, each with its value (cut to 200 characters). */
export function injectedCode(env: Record<string, string | undefined> = process.env): Record<string, string> | undefined {
  // why: NODE_OPTIONS also carries harmless flags (--max-old-space-size); only those that load a module count
  const loads = (name: string, value: string) => name !== 'NODE_OPTIONS' || /(^|\s)(-r|--require|--import|--loader|--experimental-loader)(\s|=|$)/.test(value);
  const set = CODE_INJECTING_ENV.filter((name) => (env[name] ?? '').trim() !== '' && loads(name, env[name]!)).map((name) => [name, env[name]!.slice(0, 200)] as const);
  return set.length > 0 ? Object.fromEntries(set) : undefined;
}


let source: SuiteSource | undefined;

export function suiteSource(): SuiteSource {
  return (source ??= suiteSourceAt(REPO_ROOT));
}

/**
 * A released suite version: its files hash to the release manifest of its version, exactly. Git decides nothing:
 * a copy without .git is released only if its files are the release's; a tagged checkout only if they are too.
 */
export function isReleasedSuite(s: SuiteSource & { version: string }): boolean {
  return typeof s.digest === 'string' && s.release?.version === s.version && s.release.digest === s.digest;
}

/** The suite whose files are at `root` (this suite's: suiteSource()). */
export function suiteSourceAt(root: string): SuiteSource {
  const { digest, release } = suiteRelease(root);
  const injected = injectedCode();
  return { ...readGitState(root), digest, release, ...(injected ? { injected } : {}), code: runningCode() };
}

function readGitState(root: string): Pick<SuiteSource, 'commit' | 'dirty' | 'releaseTag'> {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    // why: installed under another project's node_modules, git would answer for that project's checkout
    if (realpathSync(git('rev-parse', '--show-toplevel')) !== realpathSync(root).replace(/\/$/, '')) return { commit: null, dirty: false, releaseTag: null };
    const tags = git('tag', '--points-at', 'HEAD').split('\n');
    return {
      commit: git('rev-parse', 'HEAD'),
      // the suite's own files only: a report dir, notes or a docs edit in the checkout change nothing that runs
      dirty: git('status', '--porcelain', '--', ...SHIPPED_DIRS, ...SHIPPED_FILES).length > 0,
      releaseTag: tags.find((t) => t === `v${SUITE_VERSION}` || t === SUITE_VERSION) ?? null,
    };
  } catch {
    return { commit: null, dirty: false, releaseTag: null }; // no git, or not a checkout
  }
}
