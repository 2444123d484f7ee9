// The flags that say how requests reach a target behind a corporate network; proxies come from HTTP(S)_PROXY/NO_PROXY.
import type { Command } from 'commander';
import { parseHeaderPairs } from '../config/network-settings.ts';
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
