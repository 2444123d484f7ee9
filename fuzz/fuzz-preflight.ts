// Before a fuzz request is sent: can fuzz.json be written, is the target there, is it the API, does it take the key?
// A set-up mistake ends the run with exit 2 naming the setting; it never becomes a finding against the target.
// (One small seam: the shared pre-flight and report-folder probe of `conformance run` can take its place.)
import { existsSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ApiClient, ExchangeFailed } from '../harness/http/api-client.ts';
import type { TargetProfile } from '../harness/target-profile.ts';

const PATH = '/v1/environments';
const PREFLIGHT_REQUEST_MS = 5_000;

/** Why `dir` cannot hold fuzz.json, naming `--report-dir`, or undefined when a probe file could be written there. */
export function reportDirProblem(dir: string): string | undefined {
  try {
    makeFolders(resolve(dir));
    const probe = join(dir, `.fuzz-write-probe-${process.pid}`);
    writeFileSync(probe, 'probe\n');
    unlinkSync(probe);
    return undefined;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return `--report-dir ${dir}: fuzz.json cannot be written there (${e.code ?? e.message}); choose a folder you can write to`;
  }
}

/** Each missing folder on its own: Node's recursive mkdir never returns for a path under /proc, a plain one says ENOENT. */
function makeFolders(absolute: string): void {
  const missing: string[] = [];
  for (let at = absolute; !existsSync(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const folder of missing) mkdirSync(folder);
}

/** Why the fuzz run cannot start against this target (the setting to look at is named), or undefined. */
export async function fuzzPreflight(profile: TargetProfile): Promise<string | undefined> {
  const api = new ApiClient({ ...profile, timeouts: { ...profile.timeouts, requestMs: Math.min(profile.timeouts.requestMs, PREFLIGHT_REQUEST_MS) } });
  let res;
  try {
    res = await api.get(PATH);
  } catch (error) {
    // an oversized body is still an answer
    if (error instanceof ExchangeFailed && error.exchange.errorKind === 'too-large') return undefined;
    if (error instanceof ExchangeFailed) return `target unreachable (pre-flight GET ${PATH}): ${error.message}`;
    throw error;
  }
  if (res.status === 401 || res.status === 403) {
    return `the target refused the API key (--api-key / CONFORMANCE_API_KEY): pre-flight GET ${profile.baseUrl}${PATH} answered ${res.status}; check the key and that it belongs to this target`;
  }
  if (res.status === 404 || (res.status < 500 && res.json === undefined)) {
    const what = res.status === 404 ? 'answered 404' : `answered ${res.status} with ${res.headers['content-type'] ?? 'no content type'}, not JSON`;
    return `the base URL (--target / CONFORMANCE_TARGET) ${profile.baseUrl} does not serve the Notification API: pre-flight GET ${PATH} ${what}`;
  }
  return undefined;
}
