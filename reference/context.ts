// Types shared by the server plumbing and the route handlers.
import type { Category } from './rate-limiter.ts';
import type { ApiKeyRecord, EnvironmentState, OrganizationState } from './store.ts';
import type { FaultName } from './faults.ts';
import { HttpError } from './errors.ts';
import { isPlainObject } from './util.ts';

export interface App {
  readonly org: OrganizationState;
  has(fault: FaultName): boolean;
  /** Counts triggers for the 503-without-retry-after fault. */
  triggerCount: number;
}

export interface RequestContext {
  readonly method: string;
  /** Path without query string. */
  readonly path: string;
  /** Path with query string, as the client sent it. */
  readonly url: string;
  readonly query: URLSearchParams;
  readonly params: Record<string, string>;
  readonly body: unknown;
  readonly env: EnvironmentState;
  readonly auth: ApiKeyRecord;
  readonly app: App;
}

export interface HandlerResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => HandlerResult | Promise<HandlerResult>;

export interface RouteDef {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  category: Category;
  /** Rate-limit cost; bulk endpoints cost 100. */
  bulk?: boolean;
  /** Max body bytes for this route (default 1 MB). */
  maxBody?: number;
  handler: Handler;
}

/** `{data: dto}` success envelope. */
export const ok = (status: number, data: unknown): HandlerResult => ({ status, body: { data } });

/** The request body as an object ({} when absent); anything else is a 400. */
export function objectBody(ctx: RequestContext): Record<string, unknown> {
  // why: fault `bodyless-request-refused` refuses a request without a body instead of reading it as `{}`
  if (ctx.body === undefined && ctx.app.has('bodyless-request-refused')) throw new HttpError(400, 'Request body must be a JSON object');
  if (ctx.body === undefined) return {};
  if (ctx.body === null && ctx.app.has('null-body-crashes')) throw new TypeError("Cannot read properties of null (reading 'name')");
  if (!isPlainObject(ctx.body)) throw new HttpError(400, 'Request body must be a JSON object');
  return ctx.body;
}
