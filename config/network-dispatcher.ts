// How requests reach a target: one undici dispatcher built from the network settings (proxies, CA, client certificate).
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, EnvHttpProxyAgent, Pool, setGlobalDispatcher, type Dispatcher } from 'undici';
import type { NetworkSettings } from './settings.ts';

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

/** A dispatcher that adds the extra headers (--header) to every request it sends; a request's own header of that name wins. */
export function withHeaders(dispatcher: Dispatcher, headers: Record<string, string> | undefined): Dispatcher {
  const extra = Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v] as const);
  if (extra.length === 0) return dispatcher;
  return dispatcher.compose((dispatch) => (opts, handler) => {
    const own = ownHeaders(opts.headers);
    const merged = { ...Object.fromEntries(extra.filter(([k]) => !(k in own))), ...own };
    return dispatch({ ...opts, headers: merged }, handler);
  });
}

function ownHeaders(headers: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  if (!headers) return {};
  const out: Record<string, string> = {};
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
  } else {
    for (const [k, v] of Object.entries(headers as Record<string, unknown>)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

// A command that sends through undici's module-level request() (the load harness) sets its network here, once.
let processNetwork: NetworkSettings | undefined;

/** Every undici request of this process goes the network's way (proxies, CA, certificate) and carries its headers. */
export function useNetworkForProcess(network: NetworkSettings | undefined): void {
  processNetwork = network;
  const special = routesSpecially(network) || Object.keys(network?.headers ?? {}).length > 0;
  setGlobalDispatcher(special ? withHeaders(dispatcherFor(network, {}), network?.headers) : new Agent());
}

/** The load engine's connections to one origin: a plain Pool, or the network's dispatcher when the network asks for one. */
export function engineDispatcher(origin: string, pool: PoolOptions): Dispatcher {
  const network = processNetwork;
  if (!routesSpecially(network) && Object.keys(network?.headers ?? {}).length === 0) return new Pool(origin, pool);
  return withHeaders(dispatcherFor(network, pool), network?.headers);
}

/** The environment of a k6 process: the network's proxies (k6 reads the standard variables) and extra headers. */
export function k6NetworkEnv(): Record<string, string> {
  const n = processNetwork;
  return {
    ...(n?.httpProxy ? { HTTP_PROXY: n.httpProxy, http_proxy: n.httpProxy } : {}),
    ...(n?.httpsProxy ? { HTTPS_PROXY: n.httpsProxy, https_proxy: n.httpsProxy } : {}),
    ...(n?.noProxy ? { NO_PROXY: n.noProxy, no_proxy: n.noProxy } : {}),
    ...(n?.headers && Object.keys(n.headers).length > 0 ? { LOAD_EXTRA_HEADERS: JSON.stringify(n.headers) } : {}),
    ...(n?.clientCert ? { LOAD_CLIENT_CERT: n.clientCert, LOAD_CLIENT_KEY: n.clientKey! } : {}),
  };
}
