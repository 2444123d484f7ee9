// An authenticated exchange with a JSON answer, as the passive checks see one: the input of their unit tests.
import type { Exchange } from '../../harness/http/exchange.ts';

export const jsonExchange = (method: string, path: string, status: number, body: unknown): Exchange => ({
  method,
  url: `http://127.0.0.1:1${path}`,
  requestHeaders: {},
  status,
  responseHeaders: { 'content-type': 'application/json' },
  responseBody: typeof body === 'string' ? body : JSON.stringify(body),
  durationMs: 1,
  authenticated: true,
});
