// `conformance reference`: runs the embedded reference until SIGINT/SIGTERM, announcing itself as one JSON line.
import type { Command } from 'commander';
import { FAULTS, isFaultName, type FaultName } from '../../reference/faults.ts';
import type { ApiKeys } from '../../reference/index.ts';
import { UsageError } from '../cli-error.ts';
import { collect, integerOption } from '../options.ts';

/** Shorter keys are refused: a guessable key on a reachable port would let anyone write. */
export const MIN_KEY_LENGTH = 16;

/** Each key: its flag (the same names as `conformance run`), then its environment variable. */
export const KEY_SOURCES = {
  dev: { flag: 'apiKey', option: '--api-key', envVar: 'REFERENCE_API_KEY' },
  prod: { flag: 'secondaryApiKey', option: '--secondary-api-key', envVar: 'REFERENCE_SECONDARY_API_KEY' },
  restricted: { flag: 'restrictedApiKey', option: '--restricted-api-key', envVar: 'REFERENCE_RESTRICTED_API_KEY' },
} as const;

type KeyFlags = Partial<Record<(typeof KEY_SOURCES)[keyof ApiKeys]['flag'], string>>;

interface ReferenceFlags extends KeyFlags {
  port: number;
  host: string;
  fault: string[];
  listFaults?: boolean;
  triggerRps: number;
  windowSeconds: number;
  processingDelayMs: number;
}

export function registerReference(program: Command, env: Record<string, string | undefined>): void {
  program
    .command('reference')
    .description('start the embedded reference implementation and print {"baseUrl","regionalBaseUrl","apiKeys"} as one JSON line')
    .option('--port <n>', 'port to listen on (0 picks a free one)', integerOption('--port', 0, 65535), 0)
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--api-key <key>', `key of the dev environment (or ${KEY_SOURCES.dev.envVar}; default random)`)
    .option('--secondary-api-key <key>', `key of the prod environment (or ${KEY_SOURCES.prod.envVar}; default random)`)
    .option('--restricted-api-key <key>', `read-only key of the dev environment (or ${KEY_SOURCES.restricted.envVar}; default random)`)
    .option('--fault <name>', 'switch on a deliberate fault (repeatable; see --list-faults)', collect, [])
    .option('--list-faults', 'print the fault catalog as JSON and exit')
    .option('--trigger-rps <n>', 'trigger rate limit in requests per second', integerOption('--trigger-rps', 1), 600)
    .option('--window-seconds <n>', 'rate-limit window in seconds (RateLimit-Policy w; burst = rate × w × 1.1)', integerOption('--window-seconds', 1), 5)
    .option('--processing-delay-ms <n>', 'extra processing time for POST/PATCH with an Idempotency-Key', integerOption('--processing-delay-ms'), 0)
    .action(async (opts: ReferenceFlags) => {
      if (opts.listFaults) {
        process.stdout.write(`${JSON.stringify(FAULTS, null, 2)}\n`);
        return;
      }
      const faults = parseFaults(opts.fault);
      const given = givenKeys(opts, env);
      const { startReference } = await import('../../reference/index.ts');
      const reference = await startReference({
        port: opts.port,
        host: opts.host,
        faults,
        rateLimits: { trigger: opts.triggerRps },
        rateLimitWindowSeconds: opts.windowSeconds,
        idempotentProcessingDelayMs: opts.processingDelayMs,
        apiKeys: Object.fromEntries(Object.entries(given).map(([env, key]) => [env, key.value])),
      }).catch((error: unknown) => {
        throw listenError(error, opts) ?? error;
      });
      // Listening before the announcement: a supervisor may signal as soon as it reads the line.
      const stopped = new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
      process.stdout.write(`${JSON.stringify({ baseUrl: reference.baseUrl, regionalBaseUrl: reference.regionalBaseUrl, apiKeys: announcedKeys(reference.apiKeys, given) })}\n`);
      await stopped;
      await reference.close();
    });
}

/** Why the reference could not listen, naming the flag to change; undefined for any other failure. */
export function listenError(error: unknown, opts: { port: number; host: string }): UsageError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${opts.host}:${opts.port}`;
  if (code === 'EADDRINUSE') return new UsageError(`--port ${opts.port}: ${where} is already in use by another process; give another --port, or --port 0 for a free one`);
  if (code === 'EACCES') return new UsageError(`--port ${opts.port}: not permitted to listen on ${where} (ports below 1024 need privileges); give a --port of 1024 or more, or 0 for a free one`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new UsageError(`--host ${opts.host}: no such address on this machine to listen on; give one of its addresses, e.g. 127.0.0.1`);
  return undefined;
}

type GivenKeys = Partial<Record<keyof ApiKeys, { value: string; source: string }>>;

/** The keys given by flag or environment variable, each checked; the others stay random. */
export function givenKeys(flags: KeyFlags, env: Record<string, string | undefined>): GivenKeys {
  const given: GivenKeys = {};
  for (const [name, { flag, option, envVar }] of Object.entries(KEY_SOURCES) as [keyof ApiKeys, (typeof KEY_SOURCES)[keyof ApiKeys]][]) {
    const fromEnv = env[envVar];
    const key = flags[flag] !== undefined ? { value: flags[flag], source: option } : fromEnv !== undefined ? { value: fromEnv, source: envVar } : undefined;
    if (!key) continue;
    if (key.value.length < MIN_KEY_LENGTH) throw new UsageError(`${key.source}: a key needs at least ${MIN_KEY_LENGTH} characters, got ${key.value.length === 0 ? 'an empty one' : key.value.length}`);
    given[name] = key;
  }
  const values = Object.values(given).map((k) => k.value);
  if (new Set(values).size < values.length) throw new UsageError(`${Object.values(given).map((k) => k.source).join(', ')}: each environment needs its own key, two are the same`);
  return given;
}

/** A key the caller gave is never echoed (it would land in container logs); only random ones must be told. */
function announcedKeys(keys: ApiKeys, given: GivenKeys): Record<keyof ApiKeys, string> {
  const said = (name: keyof ApiKeys) => (given[name] ? `(given: ${given[name].source})` : keys[name]);
  return { dev: said('dev'), prod: said('prod'), restricted: said('restricted') };
}

export function parseFaults(names: string[]): FaultName[] {
  const unknown = names.filter((n) => !isFaultName(n));
  if (unknown.length > 0) throw new UsageError(`--fault: unknown fault(s) ${unknown.join(', ')}; known: ${Object.keys(FAULTS).join(', ')}`);
  return names as FaultName[];
}
