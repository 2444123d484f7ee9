// How requests reach a target: one undici dispatcher built from the network settings (proxies, CA, client certificate).
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import type { NetworkSettings } from '../../config/settings.ts';
import { withoutCredentials } from '../../config/network-settings.ts';

/** Keep-alive pool options of a dispatcher; the network settings add proxies and TLS around them. */
export interface PoolOptions {
  connections?: number;
  keepAliveTimeout?: number;
  pipelining?: number;
  headersTimeout?: number;
  bodyTimeout?: number;
}

/** True when the settings change anything about how a request travels (else a plain Agent or Pool does). */
export function routesSpecially(network: NetworkSettings | undefined): boolean {
  return Boolean(network && (network.httpProxy || network.httpsProxy || network.caFile || network.clientCert));
}

/**
 * A dispatcher that sends through the proxy of each URL's scheme unless NO_PROXY names its host (undici's
 * EnvHttpProxyAgent: an https target without HTTPS_PROXY goes through HTTP_PROXY, as Node's fetch does), trusting
 * the extra CA and presenting the client certificate. Plain http goes to the proxy as absolute-form requests, as curl
 * sends it (proxies refuse CONNECT to ports other than 443), https through a CONNECT tunnel.
 */
export function dispatcherFor(network: NetworkSettings | undefined, pool: PoolOptions): Dispatcher {
  if (!routesSpecially(network)) return new Agent(pool);
  const tls = {
    ...(network!.caFile ? { ca: [...rootsOf(), readFileSync(network!.caFile, 'utf8')] } : {}),
    ...(network!.clientCert ? { cert: readFileSync(network!.clientCert, 'utf8'), key: readFileSync(network!.clientKey!, 'utf8') } : {}),
  };
  return new EnvHttpProxyAgent({
    ...pool,
    // '' rather than undefined: undici would otherwise read process.env itself, past the settings chain
    httpProxy: network!.httpProxy ?? '',
    httpsProxy: network!.httpsProxy ?? '',
    noProxy: network!.noProxy ?? '',
    proxyTunnel: false,
    connect: tls,
    requestTls: tls,
    ...(network!.caFile ? { proxyTls: { ca: tls.ca } } : {}),
  } as EnvHttpProxyAgent.Options);
}

// why: a `ca` option replaces Node's trusted roots; the extra CA is meant to be added to them, as NODE_EXTRA_CA_CERTS is
function rootsOf(): string[] {
  return [...rootCertificates];
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
