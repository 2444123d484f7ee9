// `conformance reference`: runs the embedded reference until SIGINT/SIGTERM, announcing itself as one JSON line.
import type { Command } from 'commander';
import { FAULTS, isFaultName, startReference, type FaultName } from '../../../reference/index.ts';
import { UsageError } from '../cli-error.ts';
import { collect, integerOption } from '../options.ts';

export function registerReference(program: Command): void {
  program
    .command('reference')
    .description('start the embedded reference implementation and print {"baseUrl","regionalBaseUrl","apiKeys"} as one JSON line')
    .option('--port <n>', 'port to listen on (0 picks a free one)', integerOption('--port', 0, 65535), 0)
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--fault <name>', 'switch on a deliberate fault (repeatable; see --list-faults)', collect, [])
    .option('--list-faults', 'print the fault catalog as JSON and exit')
    .option('--trigger-rps <n>', 'trigger rate limit in requests per second', integerOption('--trigger-rps', 1), 600)
    .option('--processing-delay-ms <n>', 'extra processing time for POST/PATCH with an Idempotency-Key', integerOption('--processing-delay-ms'), 0)
    .action(async (opts: { port: number; host: string; fault: string[]; listFaults?: boolean; triggerRps: number; processingDelayMs: number }) => {
      if (opts.listFaults) {
        process.stdout.write(`${JSON.stringify(FAULTS, null, 2)}\n`);
        return;
      }
      const faults = parseFaults(opts.fault);
      const reference = await startReference({
        port: opts.port,
        host: opts.host,
        faults,
        rateLimits: { trigger: opts.triggerRps },
        idempotentProcessingDelayMs: opts.processingDelayMs,
      });
      process.stdout.write(`${JSON.stringify({ baseUrl: reference.baseUrl, regionalBaseUrl: reference.regionalBaseUrl, apiKeys: reference.apiKeys })}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await reference.close();
    });
}

export function parseFaults(names: string[]): FaultName[] {
  const unknown = names.filter((n) => !isFaultName(n));
  if (unknown.length > 0) throw new UsageError(`--fault: unknown fault(s) ${unknown.join(', ')}; known: ${Object.keys(FAULTS).join(', ')}`);
  return names as FaultName[];
}
