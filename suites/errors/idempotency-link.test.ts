// ERR-10 (INFO): a 409 or 422 raised by idempotency carries a `Link` header to documentation. Observed, and a
// missing header shows as a warning; when no such error can be provoked the test says so (not verified).
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { conformance, type ConformanceContext } from '../../fixtures/conformance.ts';
import { Skip } from '../../harness/conformance/skip.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';
import { expectCreated, postWorkflow } from '../../fixtures/workflows/workflow-requests.ts';

function requireIdempotency({ target }: ConformanceContext): void {
  if (!target.features.idempotency) throw new Skip('not-applicable', 'the target declares idempotency off (features.idempotency)');
}

function expectDocumentationLink(res: ApiResponse, what: string): void {
  const link = res.headers['link'];
  expect(link, `${what} carries a Link header to documentation; got none`).toBeTypeOf('string');
  expect(link, `${what}: the Link header names a URI (<…>)`).toMatch(/<[^>]+>/);
}

conformance('ERR-10', 'a 422 for an idempotency key reused with a different body carries a Link header', async (ctx) => {
  requireIdempotency(ctx);
  const { api, ids, cleanup, notVerified } = ctx;
  const headers = { 'idempotency-key': `conformance-${randomUUID()}` };
  const workflowId = ids.slug('wf');
  const first = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [] }, { headers });
  expectCreated(first, 'setup: the first request with the key creates the workflow');
  const otherId = ids.slug('wf');
  const reused = await postWorkflow(api, cleanup, { name: `conformance ${otherId}`, workflowId: otherId, steps: [] }, { headers });
  if (reused.status !== 422) notVerified(`the key reused with a different body was answered ${reused.status}, not 422 (IDEM-05 judges that)`);
  expectDocumentationLink(reused, 'the idempotency 422');
});

conformance('ERR-10', 'a 409 for a concurrent duplicate with one idempotency key carries a Link header', async (ctx) => {
  requireIdempotency(ctx);
  const { api, ids, cleanup, notVerified } = ctx;
  const headers = { 'idempotency-key': `conformance-${randomUUID()}` };
  const workflowId = ids.slug('wf');
  const body = { name: `conformance ${workflowId}`, workflowId, steps: [] };
  const responses = await Promise.all([0, 1, 2].map(() => postWorkflow(api, cleanup, body, { headers })));
  const conflict = responses.find((r) => r.status === 409);
  if (!conflict) notVerified(`no concurrent duplicate was answered 409 (got ${responses.map((r) => r.status).join(', ')}): the first finished before the others arrived`);
  expectDocumentationLink(conflict!, 'the idempotency 409');
});
