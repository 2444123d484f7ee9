// Public entry: startReference() runs the in-memory reference Notification Service (optionally with faults).
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { REFERENCE_HEADER, REFERENCE_VERSION } from './identity.ts';
import type { AddressInfo } from 'node:net';
import type { App, RouteDef } from './context.ts';
import { type FaultName, isFaultName } from './faults.ts';
import { IdempotencyStore } from './idempotency.ts';
import { COMPLETED_TTL_MS, IN_PROGRESS_TTL_MS } from './idempotency-ttl.ts';
import { RateLimiter } from './rate-limiter.ts';
import { rateLimitConfig } from './rate-limit-config.ts';
import { Router } from './router.ts';
import { Pipeline } from './server.ts';
import { regionalView } from './regional-view.ts';
import { OrganizationState, type ApiKeys } from './store.ts';
import { agentRoutes } from './routes/agents.ts';
import { environmentRoutes } from './routes/environments.ts';
import { environmentVariableRoutes } from './routes/environment-variables.ts';
import { eventRoutes } from './routes/events.ts';
import { layoutRoutes } from './routes/layouts.ts';
import { preferenceRoutes } from './routes/preferences.ts';
import { topicRoutes } from './routes/topics.ts';
import { workflowRoutes } from './routes/workflows.ts';
import { agentProvisioningRoutes } from './provisioning/agents.ts';
import { environmentVariableProvisioningRoutes } from './provisioning/environment-variables.ts';
import { eventProvisioningRoutes } from './provisioning/events.ts';
import { layoutProvisioningRoutes } from './provisioning/layouts.ts';
import { preferenceProvisioningRoutes } from './provisioning/preferences.ts';
import { subscriberProvisioningRoutes } from './provisioning/subscribers.ts';
import { topicProvisioningRoutes } from './provisioning/topics.ts';
import { workflowProvisioningRoutes } from './provisioning/workflows.ts';

export { FAULTS, type FaultName, driftOf, isFaultName, needsLongChecks, provenBy } from './faults.ts';
export type { ApiKeys } from './store.ts';

export interface ReferenceOptions {
  port?: number;
  host?: string;
  faults?: FaultName[];
  rateLimiting?: boolean;
  idempotency?: boolean;
  rateLimits?: Partial<Record<'trigger' | 'configuration' | 'global', number>>;
  rateLimitWindowSeconds?: number;
  idempotentProcessingDelayMs?: number;
  regional?: boolean;
  /** Known keys (e.g. for a container whose keys the harness must know); the others are random. */
  apiKeys?: Partial<ApiKeys>;
}

export interface RunningReference {
  baseUrl: string;
  regionalBaseUrl?: string;
  apiKeys: ApiKeys;
  close(): Promise<void>;
  /** Every resource the reference holds, by kind (for the harness's own leak tests; not part of the API). */
  inventory(): Record<string, string[]>;
}

export { DEFAULT_RATE_LIMITS } from './rate-limit-config.ts';

// The spec's eight operations (routes/) and the provisioning-only ones (provisioning/), in the order of their paths'
// methods before the split: the order the router lists allowed methods in.
function buildRoutes(app: App): RouteDef[] {
  return [
    ...workflowRoutes(app),
    ...workflowProvisioningRoutes(),
    ...agentProvisioningRoutes(),
    ...agentRoutes(),
    ...topicProvisioningRoutes(),
    ...topicRoutes(),
    ...layoutProvisioningRoutes(),
    ...layoutRoutes(),
    ...environmentVariableRoutes(),
    ...environmentVariableProvisioningRoutes(),
    ...environmentRoutes(),
    ...subscriberProvisioningRoutes(),
    ...preferenceProvisioningRoutes(),
    ...preferenceRoutes(),
    ...eventRoutes(app),
    ...eventProvisioningRoutes(),
  ];
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export async function startReference(options: ReferenceOptions = {}): Promise<RunningReference> {
  const faults = new Set<FaultName>();
  for (const f of options.faults ?? []) {
    if (!isFaultName(f)) throw new Error(`Unknown fault "${String(f)}"`);
    faults.add(f);
  }
  const org = new OrganizationState(options.apiKeys);
  const app: App = { org, has: (f) => faults.has(f), triggerCount: 0 };

  const { rps, windowSeconds } = rateLimitConfig(options, faults);
  const limiter =
    options.rateLimiting === false
      ? null
      : new RateLimiter({
          rps,
          windowSeconds,
          remainingNotDecremented: faults.has('remaining-not-decremented'),
          fractionalReset: faults.has('fractional-reset'),
          resetZeroWhenAccepted: faults.has('reset-zero-when-accepted'),
          retryAfterMs: faults.has('retry-after-in-ms'),
          resetAbsolute: faults.has('reset-absolute-time'),
          malformedPolicy: faults.has('malformed-policy-header'),
          ietfPolicy: faults.has('ratelimit-policy-ietf'),
          absoluteReset: faults.has('absolute-reset'),
          retryAfterMilliseconds: faults.has('retry-after-milliseconds'),
          remainingOneHigh: faults.has('remaining-one-high'),
          sharedBuckets: faults.has('shared-buckets'),
          burstAllowance: faults.has('burst-below-limit') ? -0.1 : undefined,
        });
  // why: 50 ms is well inside the harness's 150 ms processing delay, so duplicates arriving later are processed again
  const inProgressTtlMs = faults.has('in-flight-lock-expires-early') ? 50 : IN_PROGRESS_TTL_MS;
  // why: 10 s is well inside the long checks' 25 s wait (IDEM-02), so a repeat they send then is processed again
  const completedTtlMs = faults.has('completed-key-forgotten-early') ? 10_000 : COMPLETED_TTL_MS;
  const idempotency = options.idempotency === false ? null : new IdempotencyStore(!faults.has('idempotency-race'), inProgressTtlMs, completedTtlMs);
  const pipelineOf = (view: App) => new Pipeline({
    app: view,
    router: new Router(buildRoutes(view)),
    limiter,
    idempotency,
    idempotentProcessingDelayMs: options.idempotentProcessingDelayMs ?? 0,
  });
  const pipeline = pipelineOf(app);
  // why: one state, limiter and idempotency store behind both listeners; the regional one may carry its own faults
  const regionalPipeline = pipelineOf(regionalView(app));

  const host = options.host ?? '127.0.0.1';
  // why: larger header limit so overlong URIs reach our 414 instead of Node's 431
  const make = (regional: boolean) => {
    const server = createServer({ maxHeaderSize: 64 * 1024, keepAliveTimeout: 10_000 }, (req, res) => (regional ? regionalPipeline : pipeline).handle(req, res, regional));
    // why: Node's own answer to a request it cannot parse names the reference too (same statuses as Node's default)
    server.on('clientError', answerClientError);
    return server;
  };
  const main = make(false);
  const servers = [main];
  const port = await listen(main, options.port ?? 0, host);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const result: RunningReference = {
    baseUrl: `http://${urlHost}:${port}`,
    apiKeys: { ...org.keys },
    inventory: () => org.inventory(),
    close: async () => {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
  if (options.regional !== false) {
    const regional = make(true);
    servers.push(regional);
    const rport = await listen(regional, 0, host);
    result.regionalBaseUrl = `http://${urlHost}:${rport}`;
  }
  return result;
}

/** Node's default answer to a malformed request (node:_http_server socketOnError), with the reference's header. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? 413 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  if (socket.writable && (socket as Socket).bytesWritten === 0) socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n${REFERENCE_HEADER}: ${REFERENCE_VERSION}\r\n\r\n`);
  socket.destroy(error);
}
