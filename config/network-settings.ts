// Checks of the network settings at start (a wrong proxy, CA file or header is a usage error naming its setting), and
// which proxy a URL goes through, for messages.
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.ts';
import type { NetworkSettings } from './settings.ts';

/** Headers the harness itself sets (keys, framing, the hop to the proxy): a --header may not replace them. */
const RESERVED_HEADERS = ['authorization', 'host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'te', 'upgrade', 'proxy-authorization', 'proxy-connection'];
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const FLAGS = {
  caFile: '--ca-file, CONFORMANCE_CA_FILE or network.caFile',
  clientCert: '--client-cert, CONFORMANCE_CLIENT_CERT or network.clientCert',
  clientKey: '--client-key, CONFORMANCE_CLIENT_KEY or network.clientKey',
} as const;

/** A proxy address as curl reads it: `proxy.corp:3128` means http://proxy.corp:3128. */
export function proxyUrl(raw: string, setting: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ConfigError(setting, `"${withoutCredentials(raw)}" is not a proxy address (expected http://host:port)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(setting, `${url.protocol}// proxies are not supported: give an http:// or https:// proxy`);
  return withScheme;
}

/** A proxy address fit to print: user and password of the proxy replaced. */
export function withoutCredentials(raw: string): string {
  return raw.replace(/\/\/[^/@]*@/, '//[credentials]@');
}

export function checkNetwork(network: NetworkSettings): void {
  if (network.httpProxy) proxyUrl(network.httpProxy, 'network.httpProxy');
  if (network.httpsProxy) proxyUrl(network.httpsProxy, 'network.httpsProxy');
  if (Boolean(network.clientCert) !== Boolean(network.clientKey)) {
    throw new ConfigError(network.clientCert ? 'network.clientKey' : 'network.clientCert', 'a client certificate needs its key: give both --client-cert and --client-key');
  }
  for (const setting of ['caFile', 'clientCert', 'clientKey'] as const) {
    const file = network[setting];
    if (file) readPem(file, `network.${setting}`, FLAGS[setting]);
  }
  for (const [name, value] of Object.entries(network.headers ?? {})) {
    if (!TOKEN.test(name)) throw new ConfigError('network.headers', `"${name}" is not a header name (--header NAME=VALUE)`);
    if (RESERVED_HEADERS.includes(name.toLowerCase())) throw new ConfigError('network.headers', `${name} is set by the harness itself and cannot be replaced with --header${name.toLowerCase() === 'proxy-authorization' ? ' (give the proxy\'s user and password in its address: http://user:password@proxy:3128)' : ''}`);
    if (/[\r\n\0]/.test(value)) throw new ConfigError('network.headers', `the value of ${name} holds a line break`);
  }
}

/** The PEM text of a CA, certificate or key file; the error names the setting and the flags that give it. */
export function readPem(file: string, setting: string, flags: string = setting): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(setting, `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}); given by ${flags}`);
  }
  if (!text.includes('-----BEGIN ')) throw new ConfigError(setting, `${file} is not a PEM file (no -----BEGIN line); given by ${flags}`);
  return text;
}

/** `--header NAME=VALUE` (or `NAME: VALUE`, as curl takes it) → name and value. */
export function parseHeaderPairs(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const at = /[=:]/.exec(pair)?.index ?? -1;
    if (at <= 0) throw new ConfigError('--header', `takes NAME=VALUE, got "${pair.split(/[=:]/)[0]}…"`);
    out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return out;
}

/** The proxy a request to this URL goes through (printable, without credentials), or undefined when it goes direct. */
export function proxyFor(url: string, network: NetworkSettings | undefined): string | undefined {
  if (!network) return undefined;
  const { protocol, hostname, port } = new URL(url);
  const proxy = protocol === 'https:' ? (network.httpsProxy || network.httpProxy) : network.httpProxy;
  if (!proxy) return undefined;
  const portNumber = Number(port) || (protocol === 'https:' ? 443 : 80);
  return bypassed(hostname.toLowerCase(), portNumber, network.noProxy ?? '') ? undefined : withoutCredentials(proxy);
}

// The NO_PROXY reading of undici's EnvHttpProxyAgent, so a message names the proxy exactly when it was used.
function bypassed(hostname: string, port: number, noProxy: string): boolean {
  if (noProxy.trim() === '*') return true;
  for (const entry of noProxy.split(/[,\s]/).filter(Boolean)) {
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const host = (parsed ? parsed[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (parsed && Number(parsed[2]) !== port) continue;
    if (hostname === host || hostname.endsWith(`.${host}`)) return true;
  }
  return false;
}
