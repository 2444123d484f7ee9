// TRIG-05 across the ranges: bridgeUrls drawn by fast-check from the whole of each private, loopback and link-local
// block (IPv4 in every notation a URL parser accepts, IPv6, IPv4-mapped), the loopback and metadata host names in any
// letter case with or without the trailing dot, and embedded credentials: each is refused with a 4xx, never repeats
// the private address, and nothing is triggered.
import type { Arbitrary } from 'fast-check';
import fc from 'fast-check';
import { expect } from 'vitest';
import { checkProperty } from '../../fixtures/builders/property-check.ts';
import { conformance } from '../../fixtures/conformance.ts';
import { TRIGGER_PATH, expectNothingTriggered, expectTriggered, freshRecipients, lastTriggeredAt } from '../../fixtures/trigger/trigger-effects.ts';
import {
  CREDENTIALS_ON_PUBLIC_HOST, LOCAL_HOST_NAMES, LOCAL_HOST_NAME_EDGES, PRIVATE_V4_BLOCKS, PRIVATE_V6_BLOCKS, V6_LOOPBACK, edgesOfV4Block, edgesOfV6Block, urlsInV4Block, urlsInV6Block,
  type UnsafeUrl,
} from '../../fixtures/trigger/unsafe-bridge-urls.ts';

/** Draws per range: enough to reach across a block and its notations, few enough for a shared target. */
const DRAWS = 30;

/** A range: its drawn URLs, and its edges, which are always sent first so that a guard of one sub-range never escapes by chance. */
const RANGES: readonly { label: string; urls: Arbitrary<UnsafeUrl>; edges: UnsafeUrl[] }[] = [
  ...PRIVATE_V4_BLOCKS.map((b) => ({ label: `${b.label} in every IPv4 notation and as IPv4-mapped IPv6`, urls: urlsInV4Block(b), edges: edgesOfV4Block(b) })),
  ...PRIVATE_V6_BLOCKS.map((b) => ({ label: `IPv6 ${b.label}`, urls: urlsInV6Block(b), edges: edgesOfV6Block(b) })),
  { label: 'the IPv6 loopback and unspecified addresses in their written forms', urls: V6_LOOPBACK, edges: [] },
  { label: 'loopback and metadata host names in any letter case, with or without the trailing dot', urls: LOCAL_HOST_NAMES, edges: LOCAL_HOST_NAME_EDGES },
  { label: 'embedded credentials on a public host', urls: CREDENTIALS_ON_PUBLIC_HOST, edges: [] },
];

for (const range of RANGES) {
  conformance('TRIG-05', `rejects bridgeUrls drawn across ${range.label}, and triggers nothing`, async ({ api, provision, ids, target }) => {
    const wf = await provision.workflow();
    const before = await lastTriggeredAt(api, wf);
    // one recipient for every draw: any draw that ran creates it (and moves lastTriggeredAt), and each draw's own
    // 4xx is asserted where it is sent, so a fresh one per draw would only cost a read and a removal each
    const [recipient] = freshRecipients(ids, provision, 1);
    await checkProperty(
      fc.asyncProperty(range.urls, async ({ url, address }) => {
        const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [recipient], bridgeUrl: url });
        expect(res.status >= 400 && res.status < 500, `bridgeUrl ${url} is rejected with a 4xx (deployed: 400), got ${res.status}`).toBe(true);
        if (address !== undefined) expect(res.text.includes(address), `the rejection of ${url} never repeats the private address ${address}; body: ${res.text.slice(0, 300)}`).toBe(false);
      }),
      { numRuns: DRAWS + range.edges.length, examples: range.edges.map((edge) => [edge] as [UnsafeUrl]) },
    );
    await expectNothingTriggered({ api, target }, { wf, before, subscriberIds: [recipient!.subscriberId], why: `a trigger with any bridgeUrl across ${range.label}` });

    // positive control: the same trigger without bridgeUrl does run
    const [control] = freshRecipients(ids, provision, 1);
    const ok = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [control] });
    expect(ok.status, 'positive control: the same trigger without bridgeUrl is accepted').toBe(201);
    await expectTriggered({ api, target }, [control!.subscriberId], 'positive control');
  });
}
