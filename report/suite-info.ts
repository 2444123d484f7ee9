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
  return { ...readGitState(root), digest, release };
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
