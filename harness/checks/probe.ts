// Sends one of the eight operations with placeholder parameters, for checks that must not reach the handler
// (authentication, version prefixes). If a broken target does create something, it is removed again.
import type { Cleanup } from '../conformance/cleanup.ts';
import type { ApiClient, ApiResponse, RequestOptions } from '../http/api-client.ts';
import type { Operation } from '../operations.ts';

export async function probe(api: ApiClient, cleanup: Cleanup, op: Operation, options: RequestOptions = {}): Promise<ApiResponse> {
  const body = op.sampleBody?.(api.target.runPrefix);
  const res = await api.request(op.method, op.samplePath, { ...(body !== undefined ? { body } : {}), ...options });
  const created = res.data as { _id?: unknown } | undefined;
  if (op.template === '/v2/workflows' && res.status === 201 && typeof created?._id === 'string') {
    const id = created._id;
    cleanup.add(`workflow created by a probe that should have been refused`, () => api.delete(`/v2/workflows/${encodeURIComponent(id)}`));
  }
  return res;
}
