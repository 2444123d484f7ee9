// The flags that say how requests reach a target behind a corporate network; proxies come from HTTP(S)_PROXY/NO_PROXY.
import type { Command } from 'commander';
import { parseHeaderPairs, proxyFor } from '../config/network-settings.ts';
import type { NetworkSettings } from '../config/settings.ts';
import { collect } from './options.ts';

export interface NetworkFlags {
  caFile?: string;
  clientCert?: string;
  clientKey?: string;
  header: string[];
}

export function addNetworkOptions(command: Command): Command {
  return command
    .option('--ca-file <file>', 'PEM file of a private CA to trust besides the system roots (or NODE_EXTRA_CA_CERTS=FILE); proxies come from HTTP_PROXY, HTTPS_PROXY, NO_PROXY')
    .option('--client-cert <file>', 'PEM client certificate for a target that asks for one (with --client-key)')
    .option('--client-key <file>', 'PEM key of --client-cert')
    .option('--header <NAME=VALUE>', 'header sent on every request, e.g. a gateway tenant or WAF token (repeatable; values are redacted like keys)', collect, []);
}

/** The flags as dotted setting paths for resolveSettings. */
export function networkFlags(flags: NetworkFlags): Record<string, unknown> {
  return {
    'network.caFile': flags.caFile,
    'network.clientCert': flags.clientCert,
    'network.clientKey': flags.clientKey,
    'network.headers': flags.header.length > 0 ? parseHeaderPairs(flags.header) : undefined,
  };
}

/** One line saying how requests reach a given target, when anything but a direct connection: `Network: …`. */
export function describeNetwork(network: NetworkSettings, baseUrl: string | undefined): string | undefined {
  if (!baseUrl) return undefined;
  const proxy = proxyFor(baseUrl, network);
  const parts = [
    proxy ? `through the proxy ${proxy}` : network.httpProxy || network.httpsProxy ? `directly (NO_PROXY names ${new URL(baseUrl).hostname})` : '',
    network.caFile ? `trusting the CA of ${network.caFile}` : '',
    network.clientCert ? `with the client certificate ${network.clientCert}` : '',
    Object.keys(network.headers ?? {}).length ? `adding the header(s) ${Object.keys(network.headers!).join(', ')} (values redacted)` : '',
  ].filter(Boolean);
  return parts.length ? `Network: ${parts.join(', ')}` : undefined;
}
