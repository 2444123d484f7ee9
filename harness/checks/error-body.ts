// Assertions on error responses shared by suites: the status and the common error body (ERR-01 shape).
import { expect } from 'vitest';
import type { ApiResponse } from '../http/api-client.ts';

export function expectErrorResponse(res: ApiResponse, status: number, why: string): void {
  expect(res.status, `${why}: expected HTTP ${status}, got ${res.status}`).toBe(status);
  const body = res.json as Record<string, unknown> | undefined;
  expect(body, `${why}: expected the common error body (JSON object), got ${JSON.stringify(res.text.slice(0, 200))}`).toBeTypeOf('object');
  expect(body?.statusCode, `${why}: error body statusCode`).toBe(status);
  expect(body?.timestamp, `${why}: error body timestamp`).toBeTypeOf('string');
  expect(body?.path, `${why}: error body path`).toBeTypeOf('string');
}
