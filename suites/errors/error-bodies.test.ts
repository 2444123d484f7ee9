// Deliberately provoked errors checked field by field against the common body (ERR-01) and the 422 body (ERR-02).
// Every other exchange of the run is checked passively; these make sure a 404, a 400 and a 422 are always seen.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';
import type { TargetProfile } from '../../harness/target-profile.ts';
import { postWorkflow } from '../../fixtures/workflows/workflow-requests.ts';

/** The path a body must report: the request path, or the part below the base address for a target behind a prefix. */
function acceptedPaths(res: ApiResponse, target: TargetProfile): string[] {
  const requestPath = new URL(res.exchange.url).pathname;
  const basePath = new URL(target.baseUrl).pathname.replace(/\/$/, '');
  return basePath && requestPath.startsWith(basePath) ? [requestPath, requestPath.slice(basePath.length)] : [requestPath];
}

function expectCommonBody(res: ApiResponse, target: TargetProfile, schema: 'ErrorDto' | 'ValidationErrorDto', why: string): void {
  const body = res.json as Record<string, unknown> | undefined;
  expect(body, `${why}: the body is a JSON object, got ${JSON.stringify(res.text.slice(0, 200))}`).toBeTypeOf('object');
  expect(body).toMatchSchema(schema);
  expect(body?.statusCode, `${why}: statusCode equals the HTTP status`).toBe(res.status);
  const reported = String(body?.path).split('?')[0];
  expect(acceptedPaths(res, target), `${why}: path ${JSON.stringify(body?.path)} is the request path`).toContain(reported);
}

conformance('ERR-01', 'a 404 for an unknown workflow carries the common error body with its status and path', async ({ api, ids, target, notVerified }) => {
  const res = await api.get(`/v2/workflows/${ids.slug('missing')}`);
  if (res.status !== 404) notVerified(`reading an unknown workflow was answered ${res.status}, not 404; ERR-03 judges that status, this test needs a 404 to check`);
  expectCommonBody(res, target, 'ErrorDto', 'a 404');
});

conformance('ERR-01', 'a 400 for malformed JSON carries the common error body with its status and path', async ({ api, target, notVerified }) => {
  const res = await api.request('POST', '/v2/workflows', { rawBody: '{"name": "conformance", "workflowId":', contentType: 'application/json' });
  if (res.status !== 400) notVerified(`malformed JSON was answered ${res.status}, not 400; ERR-07 judges that status, this test needs a 400 to check`);
  expectCommonBody(res, target, 'ErrorDto', 'a 400');
});

conformance('ERR-02', 'a 422 for an invalid workflowId carries the validation error body naming the field', async ({ api, cleanup, target, notVerified }) => {
  const res = await postWorkflow(api, cleanup, { name: 'conformance 422', workflowId: 'not a slug!', steps: [] });
  if (res.status !== 422) notVerified(`an invalid workflowId was answered ${res.status}, not 422; WF-04 judges that status, this test needs a 422 to check`);
  expectCommonBody(res, target, 'ValidationErrorDto', 'a 422');
  const errors = (res.json as { errors: Record<string, { messages: unknown[] }> }).errors;
  expect(Object.keys(errors), 'the 422 `errors` map names the invalid field `workflowId`').toContain('workflowId');
  expect(errors.workflowId?.messages.length, 'errors.workflowId carries at least one message').toBeGreaterThan(0);
});
