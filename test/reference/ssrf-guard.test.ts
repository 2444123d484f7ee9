import { describe, expect, it } from 'vitest';
import { SSRF_POLICY_MESSAGE, checkBridgeUrl } from '../../reference/ssrf-guard.ts';

const allowed = [
  'https://example.com/api/novu',
  'https://bridge.example.org:8443/x?y=1',
  'https://8.8.8.8/',
  'https://172.32.0.1/',
  'https://100.128.0.1/',
  'https://[2001:4860:4860::8888]/',
  'https://[::ffff:8.8.8.8]/',
  'https://internal.example.com/',
  'https://localhost.example.com/',
];

const deniedIps = [
  'https://127.0.0.1/',
  'https://127.1/',
  'https://2130706433/',
  'https://0x7f000001/',
  'https://0177.0.0.1/',
  'https://0x7f.1/',
  'https://127.255.255.254/',
  'https://0.0.0.0/',
  'https://10.0.0.1/',
  'https://172.16.0.1/',
  'https://172.31.255.255/',
  'https://192.168.1.10/',
  'https://169.254.169.254/latest/meta-data',
  'https://169.254.1.1/',
  'https://100.64.0.1/',
  'https://100.127.255.255/',
  'https://[::1]/',
  'https://[::]/',
  'https://[fc00::1]/',
  'https://[fd00:ec2::254]/',
  'https://[fe80::1]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://[::ffff:10.0.0.1]/',
  'https://[::ffff:169.254.169.254]/',
];

const deniedNames = [
  'http://example.com/',
  'ftp://example.com/',
  'not a url',
  'https://localhost/',
  'https://LOCALHOST:3000/',
  'https://foo.localhost/',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://metadata/',
  'https://instance-data/',
  'https://db.internal/',
  'https://user:pass@example.com/',
  'https://user@example.com/',
];

describe('checkBridgeUrl', () => {
  it.each(allowed)('allows %s', (u) => expect(checkBridgeUrl(u)).toBeNull());
  it.each(deniedIps)('blocks %s without echoing the IP', (u) => {
    const msg = checkBridgeUrl(u);
    expect(msg).toBe(SSRF_POLICY_MESSAGE);
    const host = new URL(u).hostname.replace(/^\[|\]$/g, '');
    expect(msg).not.toContain(host);
  });
  it.each(deniedNames)('rejects %s naming bridgeUrl', (u) => expect(checkBridgeUrl(u)).toMatch(/bridgeUrl/));
  it('fault options relax exactly their class', () => {
    expect(checkBridgeUrl('https://127.0.0.1/', { allowLoopback: true })).toBeNull();
    expect(checkBridgeUrl('https://10.0.0.1/', { allowLoopback: true })).not.toBeNull();
    expect(checkBridgeUrl('https://0x7f.1/', { allowNonDecimalIp: true })).toBeNull();
    expect(checkBridgeUrl('https://127.0.0.1/', { allowNonDecimalIp: true })).not.toBeNull();
    expect(checkBridgeUrl('https://10.0.0.1/', { allowPrivate: true })).toBeNull();
    expect(checkBridgeUrl('https://[::1]/', { allowIpv6Internal: true })).toBeNull();
    expect(checkBridgeUrl('https://metadata.google.internal/', { allowMetadata: true })).toBeNull();
    expect(checkBridgeUrl('https://a:b@example.com/', { allowCredentials: true })).toBeNull();
    expect(checkBridgeUrl('http://example.com/', { allowHttp: true })).toBeNull();
    expect(checkBridgeUrl('https://10.0.0.1/', { echoIp: true })).toContain('10.0.0.1');
  });
});
