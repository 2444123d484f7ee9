// Name and version of this suite as reports show them, read once from package.json; and, when it runs from a
// git checkout, which commit — a working tree that is not a tagged release is not a released suite version.
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The checkout this suite runs from (suites, package.json, git). */
export const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

export const SUITE_NAME = pkg.name;
export const SUITE_VERSION = pkg.version;

export interface SuiteSource {
  /** The commit of the checkout the suite runs from; null when it is installed from a package (no checkout of its own). */
  commit: string | null;
  /** Files of the checkout differ from that commit (tracked changes or untracked, not ignored files). */
  dirty: boolean;
  /** The release tag of this version (v<version>) when it points at that commit. */
  releaseTag: string | null;
}


let source: SuiteSource | undefined;

export function suiteSource(): SuiteSource {
  return (source ??= readSuiteSource());
}

/** A released suite version: an installed package, or a clean checkout at the tag of its version. */
export function isReleasedSuite(s: SuiteSource): boolean {
  return s.commit === null || (s.releaseTag !== null && !s.dirty);
}

function readSuiteSource(): SuiteSource {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    // why: installed under another project's node_modules, git would answer for that project's checkout
    if (realpathSync(git('rev-parse', '--show-toplevel')) !== realpathSync(REPO_ROOT).replace(/\/$/, '')) return { commit: null, dirty: false, releaseTag: null };
    const tags = git('tag', '--points-at', 'HEAD').split('\n');
    return {
      commit: git('rev-parse', 'HEAD'),
      dirty: git('status', '--porcelain').length > 0,
      releaseTag: tags.find((t) => t === `v${SUITE_VERSION}` || t === SUITE_VERSION) ?? null,
    };
  } catch {
    return { commit: null, dirty: false, releaseTag: null }; // no git, or not a checkout
  }
}
