// A transport fault (reset, refused, no answer in time) is evidence about the network until it repeats: a test that
// meets one runs again from the start; the same request faulting on every try is a finding about the target.
import type { Exchange } from '../http/exchange.ts';
import { TRANSPORT_FAULTS } from '../http/transport.ts';

/** One try of a test that met transport faults. */
export interface FaultedTry {
  /** Requests (ids normalized: `POST /v2/workflows/{id}`, with the fault's kind) that faulted every time this try sent them. */
  alwaysFaulted: string[];
  /** Each fault, in one line. */
  faults: string[];
}

export function transportFaultsIn(exchanges: readonly Exchange[]): Exchange[] {
  return exchanges.filter(isTransportFault);
}

export function faultedTry(exchanges: readonly Exchange[], runPrefix: string): FaultedTry {
  const sent = new Map<string, { total: number; faulted: number; kinds: Set<string> }>();
  for (const e of exchanges) {
    const request = requestOf(e, runPrefix);
    const entry = sent.get(request) ?? sent.set(request, { total: 0, faulted: 0, kinds: new Set() }).get(request)!;
    entry.total += 1;
    if (isTransportFault(e)) entry.faulted += 1, entry.kinds.add(e.errorKind!);
  }
  return {
    alwaysFaulted: [...sent].filter(([, s]) => s.faulted === s.total && s.kinds.size === 1).map(([request, s]) => `${request}|${[...s.kinds][0]}`),
    faults: transportFaultsIn(exchanges).map((e) => `${requestOf(e, runPrefix)}: ${e.error}`),
  };
}

/** One request that faulted, the same way, every time it was sent in every try (`METHOD path|kind`), or undefined. */
function repeatedRequest(tries: readonly FaultedTry[]): string | undefined {
  const [first, ...rest] = tries;
  return first?.alwaysFaulted.find((key) => rest.every((t) => t.alwaysFaulted.includes(key)));
}

/**
 * The target's doing, not the network's: one request that faulted, the same way, every time it was sent in every try.
 * A network fault strikes requests at random; the same request failing on each of several fresh tries is a finding.
 */
export function repeatedFinding(tries: readonly FaultedTry[]): string | undefined {
  // one try proves nothing about repetition (run.transportRetries 0): the fault stays the network's
  if (tries.length < 2) return undefined;
  const always = repeatedRequest(tries);
  if (!always) return undefined;
  const [request, kind] = always.split('|');
  return `the target ${VERBS[kind!] ?? 'fails'} on ${request} every time it is sent (${tries.length} tries, each from the start with fresh data): a transport fault that repeats on one request is a finding, not the network`;
}

/** The chance, over a whole run, that the network alone makes some request fault on every one of its tries. */
export const FALSE_FINDING_CHANCE = 0.01;
/** A run's requests that might each be the one (the full suite sends about 3,000): the multiple comparisons. */
const COMPARISONS = 3_000;
const PRIOR_FAULTS = 1;
const PRIOR_SENT = 100;
/** The most tries a test gets while the same request keeps faulting and chance could still explain it. */
export const MOST_TRIES = 6;

/**
 * Requests sent and transport faults met so far in this worker, by run (its prefix: the fault proof runs several
 * targets in one worker) and by request (`METHOD path`): the run's own fault rate.
 */
const sentSoFar = new Map<string, Map<string, { sent: number; faulted: number }>>();

/** Counts a finished test's traffic into its run's fault rate. */
export function countTraffic(exchanges: readonly Exchange[], runPrefix: string): void {
  const run = sentSoFar.get(runPrefix) ?? sentSoFar.set(runPrefix, new Map()).get(runPrefix)!;
  for (const e of exchanges) {
    const request = requestOf(e, runPrefix);
    const entry = run.get(request) ?? run.set(request, { sent: 0, faulted: 0 }).get(request)!;
    entry.sent += 1;
    if (isTransportFault(e)) entry.faulted += 1;
  }
}

/**
 * The fault rate of every other request of the run so far, starting from one fault in 100 requests (a network that is
 * usually sound), so that the first tests of a run, with little traffic counted, are judged on a sensible rate.
 */
function faultRateBesides(runPrefix: string, request: string): { rate: number; faulted: number; sent: number } {
  let sent = 0;
  let faulted = 0;
  for (const [key, counts] of sentSoFar.get(runPrefix) ?? []) if (key !== request) (sent += counts.sent), (faulted += counts.faulted);
  return { rate: (faulted + PRIOR_FAULTS) / (sent + PRIOR_SENT), faulted, sent };
}

export type Judgement = { next: 'again' } | { next: 'finding'; message: string } | { next: 'network'; reason: string };

/**
 * What the tries so far say. The same request faulting on every try is a finding only when the run's own fault rate
 * makes that unlikely by chance (FALSE_FINDING_CHANCE over the whole run); while it does not, the test runs again, up
 * to MOST_TRIES, and past that the network is named. Faults that move between requests are the network's once
 * `retries` (run.transportRetries) are spent.
 */
export function judgeTries(tries: readonly FaultedTry[], retries: number, runPrefix: string): Judgement {
  const always = retries > 0 && tries.length >= 2 ? repeatedRequest(tries) : undefined;
  if (always) {
    const [request] = always.split('|');
    const { rate, faulted, sent } = faultRateBesides(runPrefix, request!);
    const chance = Math.min(1, COMPARISONS * rate ** tries.length);
    const odds = `at this run's fault rate (${faulted} of ${sent} other requests, ${(rate * 100).toFixed(1)} %) the network alone does that with probability ${chance.toPrecision(2)}`;
    if (chance < FALSE_FINDING_CHANCE) return { next: 'finding', message: `${repeatedFinding(tries)}; ${odds}` };
    if (tries.length < Math.max(MOST_TRIES, retries + 1)) return { next: 'again' };
    return { next: 'network', reason: `the network: ${request} faulted on each of ${tries.length} tries, but ${odds}, too likely to call it the target's; run again on a steadier network` };
  }
  if (tries.length <= retries) return { next: 'again' };
  return { next: 'network', reason: networkReason(tries) };
}

/** Why the test is not verified when the faults moved from request to request: the network, named as such. */
export function networkReason(tries: readonly FaultedTry[]): string {
  const seen = tries.map((t, i) => `try ${i + 1}: ${t.faults[0] ?? 'a transport fault'}`).join('; ');
  return `the network: a transport fault on each of ${tries.length} tries, at different requests (${seen}); run again or raise run.transportRetries`;
}

const VERBS: Record<string, string> = {
  reset: 'resets the connection',
  refused: 'refuses the connection',
  timeout: 'sends no response in time',
};

function isTransportFault(e: Exchange): boolean {
  return e.errorKind !== undefined && TRANSPORT_FAULTS.includes(e.errorKind);
}

/** Method and path, with run-prefixed and generated ids replaced by `{id}`, so one request reads the same on every try. */
function requestOf(exchange: Exchange, runPrefix: string): string {
  const url = new URL(exchange.url);
  const path = url.pathname
    .split('/')
    .map((segment) => (segment.includes(runPrefix) || /^[0-9a-f]{24}$/i.test(segment) || /^[0-9a-f-]{36}$/i.test(segment) ? '{id}' : segment))
    .join('/');
  return `${exchange.method} ${path}`;
}
