// Workflow creation as the WF tests need it: the raw response (no setup semantics), with removal registered
// for whatever the target may have created, and a read-back that shows whether a workflow exists.
import { expect } from 'vitest';
import type { ApiClient, ApiResponse, RequestOptions } from '../../harness/http/api-client.ts';
import type { Cleanup } from '../../harness/conformance/cleanup.ts';

export const STEP_TYPES = ['in_app', 'email', 'sms', 'push', 'chat', 'delay', 'digest', 'throttle', 'tool', 'custom', 'http_request'] as const;

/** RULES.md § Wire conventions. */
export const SLUG_PATTERN = /^[a-zA-Z0-9]+(?:[-_.][a-zA-Z0-9]+)*$/;
export const ORIGINS = ['novu-cloud', 'novu-cloud-v1', 'external'];
export const STATUSES = ['ACTIVE', 'INACTIVE', 'ERROR'];
export const SEVERITIES = ['high', 'medium', 'low', 'none'];
export const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * POST /v2/workflows and return the response as it came. Removal is registered either way: a 2xx by the
 * returned `_id`, anything else by the requested workflowId, in case a target created it despite rejecting it.
 */
export async function postWorkflow(api: ApiClient, cleanup: Cleanup, body: Record<string, unknown>, options: RequestOptions = {}): Promise<ApiResponse> {
  const res = await api.post('/v2/workflows', body, options);
  const created = res.status >= 200 && res.status < 300 && typeof res.data?._id === 'string' ? (res.data._id as string) : undefined;
  const requested = typeof body.workflowId === 'string' && body.workflowId !== '' ? body.workflowId : undefined;
  const id = created ?? requested;
  if (id !== undefined) {
    const regional = options.regional ? { regional: true } : {};
    cleanup.add(`workflow ${id}`, async () => {
      const del = await api.delete(`/v2/workflows/${encodeURIComponent(id)}`, regional);
      if (![200, 204, 404].includes(del.status)) throw new Error(`DELETE /v2/workflows/${id} answered ${del.status}`);
    });
  }
  return res;
}

/** GET /v2/workflows/{id} (internal `_id`, workflowId or slug). */
export async function readWorkflow(api: ApiClient, id: string, options: RequestOptions = {}): Promise<ApiResponse> {
  return api.get(`/v2/workflows/${encodeURIComponent(id)}`, options);
}

/** A rejected creation must leave nothing behind: reading the workflowId back gives 404. */
export async function expectNoWorkflow(api: ApiClient, workflowId: string, why: string): Promise<void> {
  const res = await readWorkflow(api, workflowId);
  expect(res.status, `${why}: GET /v2/workflows/${workflowId} must answer 404 (nothing created), got ${res.status}`).toBe(404);
}

/** The field names a 422 `errors` map reports; `steps[0].name` and `steps.0.name` both name `steps`. */
export function errorFields(res: ApiResponse): string[] {
  const errors = (res.json as { errors?: unknown } | undefined)?.errors;
  return errors && typeof errors === 'object' && !Array.isArray(errors) ? Object.keys(errors) : [];
}

export function namesField(fields: string[], field: string): boolean {
  return fields.some((f) => f === field || f.startsWith(`${field}.`) || f.startsWith(`${field}[`));
}

/** Creation as a precondition of another rule: any 2xx (the exact 201 is WF-01's verdict, not every rule's). */
export function expectCreated(res: ApiResponse, why: string): void {
  expect(res.status >= 200 && res.status < 300, `${why}: expected the workflow to be created (2xx), got ${res.status}`).toBe(true);
}
