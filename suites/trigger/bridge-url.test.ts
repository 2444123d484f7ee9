// SSRF guard on `bridgeUrl` (TRIG-05): every unsafe form is rejected, triggers nothing, and the error never
// repeats the private address the host resolves to. And the other side (TRIG-01): a bridgeUrl the target's operator
// names as acceptable (bridge.acceptableUrls) makes a valid trigger, so a guard that blocks too much is noticed.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { TRIGGER_PATH, expectNothingTriggered, expectTriggered, freshRecipients, lastTriggeredAt } from '../../fixtures/trigger/trigger-effects.ts';

interface UnsafeBridgeUrl {
  label: string;
  url: string;
  /** Private addresses the host resolves to: none of them may appear in the error response. */
  resolvesTo: readonly string[];
  /** How the deployed service words the rejection (provisioning.md): host names name `bridgeUrl`, IP literals the SSRF policy. */
  wording?: 'names bridgeUrl' | 'SSRF policy';
}

const UNSAFE_BRIDGE_URLS: readonly UnsafeBridgeUrl[] = [
  { label: 'plain http', url: 'http://bridge.example.com/api/novu', resolvesTo: [] },
  { label: 'localhost', url: 'https://localhost/api/novu', resolvesTo: ['127.0.0.1', '::1'], wording: 'names bridgeUrl' },
  { label: 'a name under .localhost (RFC 6761: loopback)', url: 'https://bridge.localhost/api/novu', resolvesTo: ['127.0.0.1', '::1'], wording: 'names bridgeUrl' },
  { label: 'loopback 127.0.0.1', url: 'https://127.0.0.1/api/novu', resolvesTo: ['127.0.0.1'], wording: 'SSRF policy' },
  { label: 'short loopback 127.1', url: 'https://127.1/api/novu', resolvesTo: ['127.0.0.1'], wording: 'SSRF policy' },
  { label: 'unspecified 0.0.0.0', url: 'https://0.0.0.0/api/novu', resolvesTo: ['0.0.0.0'], wording: 'SSRF policy' },
  { label: 'IPv6 loopback [::1]', url: 'https://[::1]/api/novu', resolvesTo: ['::1'], wording: 'SSRF policy' },
  { label: 'IPv4-mapped IPv6 [::ffff:127.0.0.1]', url: 'https://[::ffff:127.0.0.1]/api/novu', resolvesTo: ['127.0.0.1', '::ffff:7f00:1'], wording: 'SSRF policy' },
  { label: 'IPv6 link-local [fe80::1]', url: 'https://[fe80::1]/api/novu', resolvesTo: ['fe80::1'], wording: 'SSRF policy' },
  { label: 'IPv6 unique-local [fd00::1]', url: 'https://[fd00::1]/api/novu', resolvesTo: ['fd00::1'], wording: 'SSRF policy' },
  { label: 'private 10.0.0.1 (10/8)', url: 'https://10.0.0.1/api/novu', resolvesTo: ['10.0.0.1'], wording: 'SSRF policy' },
  { label: 'private 172.16.0.1 (172.16/12)', url: 'https://172.16.0.1/api/novu', resolvesTo: ['172.16.0.1'], wording: 'SSRF policy' },
  { label: 'private 172.31.255.254 (172.16/12 upper end)', url: 'https://172.31.255.254/api/novu', resolvesTo: ['172.31.255.254'], wording: 'SSRF policy' },
  { label: 'private 192.168.1.1 (192.168/16)', url: 'https://192.168.1.1/api/novu', resolvesTo: ['192.168.1.1'], wording: 'SSRF policy' },
  { label: 'link-local metadata 169.254.169.254', url: 'https://169.254.169.254/latest/meta-data/', resolvesTo: ['169.254.169.254'], wording: 'SSRF policy' },
  { label: 'metadata host metadata.google.internal', url: 'https://metadata.google.internal/computeMetadata/v1/', resolvesTo: ['169.254.169.254'], wording: 'names bridgeUrl' },
  { label: 'metadata host with trailing dot metadata.google.internal.', url: 'https://metadata.google.internal./computeMetadata/v1/', resolvesTo: ['169.254.169.254'], wording: 'names bridgeUrl' },
  // the short metadata names a cloud's resolver answers inside an instance (GCP `metadata`, AWS `instance-data` and its `.ec2.internal` name)
  { label: 'metadata host metadata (GCP short name)', url: 'https://metadata/computeMetadata/v1/', resolvesTo: ['169.254.169.254'] },
  { label: 'metadata host instance-data (AWS short name)', url: 'https://instance-data/latest/meta-data/', resolvesTo: ['169.254.169.254'] },
  { label: 'metadata host instance-data.ec2.internal (AWS)', url: 'https://instance-data.ec2.internal/latest/meta-data/', resolvesTo: ['169.254.169.254'] },
  // IPv4-compatible IPv6 (RFC 4291 §2.5.5.1, deprecated but still parsed): the embedded IPv4 address decides
  { label: 'IPv4-compatible IPv6 [::127.0.0.1]', url: 'https://[::127.0.0.1]/api/novu', resolvesTo: ['127.0.0.1', '::7f00:1'] },
  { label: 'IPv4-compatible IPv6 [::10.0.0.1]', url: 'https://[::10.0.0.1]/api/novu', resolvesTo: ['10.0.0.1', '::a00:1'] },
  { label: 'decimal IPv4 2130706433', url: 'https://2130706433/api/novu', resolvesTo: ['127.0.0.1'], wording: 'SSRF policy' },
  { label: 'hex IPv4 0x7f000001', url: 'https://0x7f000001/api/novu', resolvesTo: ['127.0.0.1'], wording: 'SSRF policy' },
  { label: 'octal IPv4 0177.0.0.1', url: 'https://0177.0.0.1/api/novu', resolvesTo: ['127.0.0.1'], wording: 'SSRF policy' },
  { label: 'decimal private IPv4 167772161', url: 'https://167772161/api/novu', resolvesTo: ['10.0.0.1'], wording: 'SSRF policy' },
  { label: 'embedded credentials user:pass@', url: 'https://user:pass@bridge.example.com/api/novu', resolvesTo: [] },
  { label: 'embedded user name without password user@', url: 'https://user@bridge.example.com/api/novu', resolvesTo: [] },
  { label: 'embedded password without user name :pass@', url: 'https://:pass@bridge.example.com/api/novu', resolvesTo: [] },
];

for (const form of UNSAFE_BRIDGE_URLS) {
  conformance('TRIG-05', `rejects a bridgeUrl with ${form.label} and triggers nothing`, async ({ api, provision, ids, target }) => {
    const wf = await provision.workflow();
    const before = await lastTriggeredAt(api, wf);
    const [recipient, control] = freshRecipients(ids, provision, 2);

    const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [recipient], bridgeUrl: form.url });
    expect(res.status, `bridgeUrl ${form.url} is rejected with a 4xx (deployed: 400)`).toBeGreaterThanOrEqual(400);
    expect(res.status, `bridgeUrl ${form.url} is rejected with a 4xx (deployed: 400), not a 5xx`).toBeLessThan(500);
    for (const ip of form.resolvesTo) {
      expect(res.text.includes(ip), `the rejection of ${form.url} never repeats the private address ${ip} it resolves to; body: ${res.text.slice(0, 300)}`).toBe(false);
    }
    await expectNothingTriggered({ api, target }, { wf, before, subscriberIds: [recipient!.subscriberId], why: `a trigger with bridgeUrl ${form.url}` });

    // positive control: the same trigger without bridgeUrl does run
    const ok = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [control] });
    expect(ok.status, 'positive control: the same trigger without bridgeUrl is accepted').toBe(201);
    await expectTriggered({ api, target }, [control!.subscriberId], 'positive control');
  });
}

conformance(
  'TRIG-05',
  'rejects unsafe bridgeUrls with 400 as the deployed service does',
  async ({ api, provision, ids }) => {
    const wf = await provision.workflow();
    for (const form of UNSAFE_BRIDGE_URLS) {
      const [recipient] = freshRecipients(ids, provision, 1);
      const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [recipient], bridgeUrl: form.url });
      expect(res.status, `bridgeUrl ${form.url} (${form.label}) is rejected with 400, the deployed service's status`).toBe(400);
      const message = String((res.json as { message?: unknown } | undefined)?.message ?? '');
      if (form.wording === 'names bridgeUrl') expect(message, `the rejection of ${form.url} names bridgeUrl, as the deployed service's does`).toContain('bridgeUrl');
      if (form.wording === 'SSRF policy') expect(message, `the rejection of ${form.url} says it is blocked by the outbound SSRF policy, as the deployed service's does`).toMatch(/blocked by the outbound SSRF policy/i);
    }
  },
  { level: 'SHOULD' },
);

conformance('TRIG-01', 'accepts a trigger with each bridgeUrl the operator names as acceptable (bridge.acceptableUrls)', async ({ api, provision, notVerified, target }) => {
  const urls = target.acceptableBridgeUrls ?? [];
  if (urls.length === 0) notVerified('no acceptable bridgeUrls configured (bridge.acceptableUrls): which public https bridgeUrls a target accepts is for its operator to say');
  const wf = await provision.workflow();
  const subscriber = await provision.subscriber();
  for (const url of urls) {
    const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [subscriber.subscriberId], bridgeUrl: url });
    expect(res.status, `a trigger with the acceptable bridgeUrl ${url} is valid and answered 201 (the spec: a publicly reachable https URL)`).toBe(201);
    expect(res.data.acknowledged, `a trigger with the acceptable bridgeUrl ${url} is acknowledged`).toBe(true);
  }
});
