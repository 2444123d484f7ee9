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

/**
 * The target's doing, not the network's: one request that faulted, the same way, every time it was sent in every try.
 * A network fault strikes requests at random; the same request failing on each of several fresh tries is a finding.
 */
export function repeatedFinding(tries: readonly FaultedTry[]): string | undefined {
  // one try proves nothing about repetition (run.transportRetries 0): the fault stays the network's
  if (tries.length < 2) return undefined;
  const [first, ...rest] = tries;
  const always = first?.alwaysFaulted.find((key) => rest.every((t) => t.alwaysFaulted.includes(key)));
  if (!always) return undefined;
  const [request, kind] = always.split('|');
  return `the target ${VERBS[kind!] ?? 'fails'} on ${request} every time it is sent (${tries.length} tries, each from the start with fresh data): a transport fault that repeats on one request is a finding, not the network`;
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
