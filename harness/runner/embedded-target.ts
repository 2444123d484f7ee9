// Starts the embedded reference when no target is given, and describes it as a TargetProfile's keys.
import { startReference, type FaultName, type RunningReference } from '../../reference/index.ts';

/** Processing time for idempotent writes, so that concurrent duplicates really overlap (IDEM-03). */
const IDEMPOTENT_PROCESSING_DELAY_MS = 150;

/**
 * The reference's `bridge.acceptableUrls` (it never calls a bridge): public IP literals just outside each range its
 * SSRF guard blocks, so a guard that blocks more than those ranges is noticed (TRIG-01).
 */
export const REFERENCE_ACCEPTABLE_BRIDGE_URLS: readonly string[] = [
  ...[
    '1.0.0.1', // above 0.0.0.0/8
    '9.255.255.254', '11.0.0.1', // around 10.0.0.0/8
    '100.63.255.254', '100.128.0.1', // around 100.64.0.0/10
    '126.255.255.254', '128.0.0.1', // around 127.0.0.0/8
    '169.253.255.254', '169.255.0.1', // around 169.254.0.0/16
    '172.15.255.254', '172.32.0.1', // around 172.16.0.0/12
    '191.255.255.254', '192.0.1.1', // around 192.0.0.0/24
    '192.167.255.254', '192.169.0.1', // around 192.168.0.0/16
    '198.17.255.254', '198.20.0.1', // around 198.18.0.0/15
    '223.255.254.1', // below 224.0.0.0/4
    // the second octet of a blocked range under another first octet: a range is its first octet too
    '193.168.0.1', '170.254.0.1', '101.64.0.1', '199.18.0.1',
  ].map((ip) => `https://${ip}/api/novu`),
  ...[
    '2606:4700:4700::1111', // global unicast, written with ::
    '2001:4860:4860:1:2:3:4:8888', // global unicast, all eight groups
    '::ffff:8.8.8.8', // IPv4-mapped form of a public address (beside ::ffff:127.0.0.1)
    '2001:4860:4860::1', // ends in :1, yet not ::1
    '2001:4860:4860::ffff:a00:1', // low 32 bits spell 10.0.0.1: an IPv4 is embedded only under ::ffff:0:0/96 …
    '2001:4860::a00:1', // … or 64:ff9b::/96 (NAT64) …
    '2001:ff9b::a00:1', // … (the NAT64 prefix's second group alone is not the prefix) …
    '2001:a00:1::1', // … or 2002::/16 (6to4, here groups 2-3 spell 10.0.0.1)
  ].map((ip) => `https://[${ip}]/api/novu`),
  'https://bridge.example.com/api/novu', // the host name the http and credentials cases use, as a valid bridgeUrl
];

export interface EmbeddedTarget {
  reference: RunningReference;
  keys: { primary: string; secondary: string; restricted: string };
  acceptableBridgeUrls: readonly string[];
}

export async function startEmbeddedTarget(faults: FaultName[]): Promise<EmbeddedTarget> {
  const reference = await startReference({ faults, idempotentProcessingDelayMs: IDEMPOTENT_PROCESSING_DELAY_MS });
  return {
    reference,
    keys: { primary: reference.apiKeys.dev, secondary: reference.apiKeys.prod, restricted: reference.apiKeys.restricted },
    acceptableBridgeUrls: REFERENCE_ACCEPTABLE_BRIDGE_URLS,
  };
}
