// Syntactic SSRF guard for trigger `bridgeUrl` (no DNS): https only, public hosts only.
import type { FaultName } from './faults.ts';

export interface SsrfGuardOptions {
  allowHttp?: boolean;
  allowLoopback?: boolean;
  allowNonDecimalIp?: boolean;
  allowPrivate?: boolean;
  allowIpv6Internal?: boolean;
  allowMetadata?: boolean;
  allowCredentials?: boolean;
  echoIp?: boolean;
}

export const SSRF_POLICY_MESSAGE = 'bridgeUrl is blocked by the outbound SSRF policy';

type V4Class = 'loopback' | 'private' | 'public';

function parseIpv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
  return parts.every((p) => p <= 255) ? parts : null;
}

/** Classifies a dotted IPv4 address (as produced by WHATWG URL normalization). */
export function classifyIpv4(p: readonly number[]): V4Class {
  const [a = 0, b = 0, c = 0] = p;
  if (a === 127) return 'loopback';
  if (a === 0) return 'private'; // 0.0.0.0/8 "this network"
  if (a === 10) return 'private';
  if (a === 172 && b >= 16 && b <= 31) return 'private';
  if (a === 192 && b === 168) return 'private';
  if (a === 169 && b === 254) return 'private'; // link-local incl. 169.254.169.254 metadata
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // CGNAT
  if (a === 192 && b === 0 && c === 0) return 'private';
  if (a === 198 && (b === 18 || b === 19)) return 'private';
  if (a >= 224) return 'private'; // multicast, reserved, broadcast
  return 'public';
}

/** Expands a WHATWG-normalized IPv6 literal (no brackets) into 8 groups. */
export function parseIpv6(host: string): number[] | null {
  let h = host.toLowerCase();
  const zone = h.indexOf('%');
  if (zone >= 0) h = h.slice(0, zone);
  let tail: number[] = [];
  const lastColon = h.lastIndexOf(':');
  const maybeV4 = h.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    const v4 = parseIpv4(maybeV4);
    if (!v4) return null;
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    h = h.slice(0, lastColon + 1) + (h.endsWith('::' + maybeV4) ? '' : '0');
    if (h.endsWith(':0')) h = h.slice(0, -2);
  }
  const halves = h.split('::');
  if (halves.length > 2) return null;
  const toGroups = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = toGroups(halves[0]!);
  const rest = halves.length === 2 ? toGroups(halves[1]!) : [];
  if (!head || !rest) return null;
  const explicit = head.length + rest.length + tail.length;
  if (halves.length === 1 && explicit !== 8) return null;
  if (explicit > 8) return null;
  return [...head, ...new Array<number>(8 - explicit).fill(0), ...rest, ...tail];
}

function classifyIpv6(g: readonly number[]): V4Class {
  const embedded = (hi: number, lo: number): V4Class => classifyIpv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(8)) return 'private'; // ::
  if (zeros(7) && g[7] === 1) return 'loopback'; // ::1
  if (zeros(5) && g[5] === 0xffff) return embedded(g[6]!, g[7]!); // IPv4-mapped
  if (zeros(6)) return embedded(g[6]!, g[7]!); // IPv4-compatible (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return embedded(g[6]!, g[7]!); // NAT64
  if (g[0] === 0x2002) return embedded(g[1]!, g[2]!); // 6to4
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 ULA
  if ((first & 0xffc0) === 0xfe80) return 'private'; // fe80::/10 link-local
  if ((first & 0xffc0) === 0xfec0) return 'private'; // fec0::/10 site-local
  if ((first & 0xff00) === 0xff00) return 'private'; // multicast
  return 'public';
}

const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'metadata.azure.internal']);

/** Returns null when the URL is acceptable, else the rejection message (never naming a private IP). */
export function checkBridgeUrl(raw: string, opts: SsrfGuardOptions = {}, faults: { has(fault: FaultName): boolean } = new Set()): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'bridgeUrl must be a valid URL';
  }
  if (url.protocol !== 'https:' && !(opts.allowHttp && url.protocol === 'http:')) return 'bridgeUrl must use the https protocol';
  // why: fault `bridge-url-partial-credentials-allowed` drops a lone user name or password instead of rejecting it
  if (faults.has('bridge-url-partial-credentials-allowed') && (url.username === '' || url.password === '')) url.username = url.password = '';
  if ((url.username !== '' || url.password !== '') && !opts.allowCredentials) return 'bridgeUrl must not contain credentials';
  let host = url.hostname.toLowerCase();
  // why: fault `bridge-url-localhost-trailing-dot-allowed` leaves `localhost.` as written, so the name check misses it
  const keepDot = faults.has('bridge-url-localhost-trailing-dot-allowed') && /(^|\.)localhost\.$/.test(host);
  if (host.endsWith('.') && !keepDot) host = host.slice(0, -1);
  if (host === '') return 'bridgeUrl must name a host';

  if (host.startsWith('[')) {
    if (faults.has('bridge-url-ipv6-literal-blocked')) return 'bridgeUrl must be a valid URL';
    const groups = parseIpv6(host.slice(1, -1));
    if (!groups) return 'bridgeUrl must be a valid URL';
    const cls = classifyIpv6(groups);
    // why: fault `bridge-url-ipv4-compatible-allowed` takes `::a.b.c.d` (but `::` and `::1`) for a public address
    if (faults.has('bridge-url-ipv4-compatible-allowed') && groups.slice(0, 6).every((x) => x === 0) && (groups[6] !== 0 || groups[7]! > 1)) return null;
    if (faults.has('bridge-url-ipv6-link-local-allowed') && (groups[0]! & 0xffc0) === 0xfe80) return null;
    if (faults.has('bridge-url-ula-fd-only') && (groups[0]! & 0xff00) === 0xfc00) return null;
    if (cls === 'public' || opts.allowIpv6Internal) return null;
    return opts.echoIp ? `bridgeUrl ${host} is blocked by the outbound SSRF policy` : SSRF_POLICY_MESSAGE;
  }
  const v4 = parseIpv4(host);
  if (v4) {
    // why: fault `bridge-url-hex-ip-allowed` judges the raw text instead of the normalized host
    if (opts.allowNonDecimalIp && !rawHostIsDottedDecimal(raw)) return null;
    const cls = classifyIpv4(v4);
    if (faults.has('bridge-url-172-slash-8-blocked') && v4[0] === 172) return SSRF_POLICY_MESSAGE;
    if (faults.has('bridge-url-loopback-only-127-0-0-1') && v4[0] === 127 && v4.join('.') !== '127.0.0.1') return null;
    if (faults.has('bridge-url-link-local-metadata-only') && v4[0] === 169 && v4[1] === 254 && v4.join('.') !== '169.254.169.254') return null;
    if (cls === 'public') return null;
    if (cls === 'loopback' && opts.allowLoopback) return null;
    if (cls === 'private' && opts.allowPrivate) return null;
    return opts.echoIp ? `bridgeUrl ${host} is blocked by the outbound SSRF policy` : SSRF_POLICY_MESSAGE;
  }
  if (faults.has('bridge-url-localhost-subdomain-allowed') && host.endsWith('.localhost')) return null;
  if (host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.localdomain') {
    return opts.allowLoopback ? null : 'bridgeUrl must not point to localhost';
  }
  if (faults.has('bridge-url-metadata-short-names-allowed') && (host === 'metadata' || host === 'instance-data')) return null;
  if (faults.has('bridge-url-internal-names-allowed') && host.endsWith('.internal') && !METADATA_HOSTS.has(host)) return null;
  if (METADATA_HOSTS.has(host) || host.endsWith('.internal')) {
    return opts.allowMetadata ? null : 'bridgeUrl must not point to an internal or metadata host';
  }
  return null;
}

function rawHostIsDottedDecimal(raw: string): boolean {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/:?#]+)/i.exec(raw.trim());
  return !!m && /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(m[1]!);
}
