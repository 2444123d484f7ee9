// Sends one of the eight operations with placeholder parameters, for checks that must not reach the handler
// (authentication, version prefixes). If a broken target does create something, it is removed again.
import type { Cleanup } from '../conformance/cleanup.ts';
import type { ApiClient, ApiResponse, RequestOptions } from '../http/api-client.ts';
import type { Operation } from '../operations.ts';

export async function probe(api: ApiClient, cleanup: Cleanup, op: Operation, options: RequestOptions = {}): Promise<ApiResponse> {
  const body = op.sampleBody?.(api.target.runPrefix);
  const res = await api.request(op.method, op.samplePath, { ...(body !== undefined ? { body } : {}), ...options });
  if (res.status >= 200 && res.status < 300) {
    const prefix = api.target.runPrefix;
    if (op.template === '/v2/workflows') cleanup.remove('workflow created by a probe that should have been refused', `/v2/workflows/${prefix}-probe`);
    if (op.template === '/v1/events/trigger') cleanup.remove('subscriber a refused-probe trigger may have created', `/v2/subscribers/${prefix}-probe`);
  }
  return res;
}
