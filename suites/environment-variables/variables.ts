// Shared by the EV suites: listing environment variables and finding the one a test created.
import { expect } from 'vitest';
import type { ApiClient, ApiResponse } from '../../harness/http/api-client.ts';

export const SEARCH_PARAM = 'search';

export interface Variable {
  key?: string;
  isSecret?: unknown;
  values?: { _environmentId?: unknown; value?: unknown }[];
  [field: string]: unknown;
}

export async function listVariables(api: ApiClient, search?: string): Promise<ApiResponse<Variable[]>> {
  return api.get<Variable[]>('/v1/environment-variables', search === undefined ? {} : { query: { [SEARCH_PARAM]: search } });
}

/** The listed variables, after checking the list answered 200 with an array. */
export async function listedVariables(api: ApiClient, search?: string): Promise<Variable[]> {
  const res = await listVariables(api, search);
  const what = search === undefined ? 'GET /v1/environment-variables' : `GET /v1/environment-variables?${SEARCH_PARAM}=${search}`;
  expect(res.status, `${what} answers 200`).toBe(200);
  expect(Array.isArray(res.data), `${what} answers an array of environment variables, got ${res.text.slice(0, 200)}`).toBe(true);
  return res.data;
}

export const keysOf = (variables: Variable[]) => variables.map((v) => v.key);
