// Oversized requests are refused with their own status, never a server error: a body over the trigger's
// 512 KB (ERR-05), also when sent in chunks without a declared length, and an overlong URI (ERR-06); the refusal
// is the common error body in JSON.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { expectErrorResponse } from '../../harness/checks/error-body.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';

/** Over the deployed service's 512 KB trigger limit with room to spare. */
const OVERSIZED_PAYLOAD_BYTES = 600 * 1024;
/** The deployed service's trigger limit, 512 KiB: a body of exactly this many bytes is not over it. */
const TRIGGER_LIMIT_BYTES = 512 * 1024;
/** Past common URI limits (8 KB request lines) and 16 KB; below what an HTTP parser rejects outright. */
const OVERLONG_URI_CHARS = 20_000;

conformance('ERR-05', 'a trigger whose payload is over 512 KB gets 413', async ({ api, provision }) => {
  const wf = await provision.workflow();
  const { subscriberId } = await provision.subscriber();
  const res = await api.post('/v1/events/trigger', { name: wf.workflowId, to: [subscriberId], payload: { blob: 'x'.repeat(OVERSIZED_PAYLOAD_BYTES) } });
  expect(res.status, `a trigger body of ${OVERSIZED_PAYLOAD_BYTES} bytes of payload is refused with 413 (never 2xx or 5xx), got ${res.status}`).toBe(413);
  expectJsonErrorBody(res, 413, 'the 413 of an oversized trigger');
});

conformance('ERR-05', 'a trigger over 512 KB sent with chunked transfer coding (no Content-Length) gets 413', async ({ api, provision }) => {
  const wf = await provision.workflow();
  const { subscriberId } = await provision.subscriber();
  const body = { name: wf.workflowId, to: [subscriberId], payload: { blob: 'x'.repeat(OVERSIZED_PAYLOAD_BYTES) } };
  const res = await api.post('/v1/events/trigger', body, { chunked: true });
  expect(res.status, `a chunked trigger body of ${OVERSIZED_PAYLOAD_BYTES} bytes of payload declares no length but is refused with 413 all the same (never 2xx or 5xx), got ${res.status}`).toBe(413);
  expectJsonErrorBody(res, 413, 'the 413 of an oversized chunked trigger');
});

conformance('ERR-06', 'a URI of 20,000 characters (long query string) gets 414', async ({ api }) => {
  const res = await api.get('/v1/environments', { query: { filler: 'a'.repeat(OVERLONG_URI_CHARS) } });
  expect(res.status, `a URI of over ${OVERLONG_URI_CHARS} characters is refused with 414 (never 5xx), got ${res.status}`).toBe(414);
  expectJsonErrorBody(res, 414, 'the 414 of an overlong query string');
});

conformance('ERR-06', 'a URI of 20,000 characters (long path segment) gets 414', async ({ api }) => {
  const res = await api.get(`/v2/workflows/${'a'.repeat(OVERLONG_URI_CHARS)}`);
  expect(res.status, `a URI of over ${OVERLONG_URI_CHARS} characters is refused with 414 (never 5xx), got ${res.status}`).toBe(414);
  expectJsonErrorBody(res, 414, 'the 414 of an overlong path');
});

/** The refusal is the common error body in JSON (labelled so), never a proxy's HTML page. */
function expectJsonErrorBody(res: ApiResponse, status: number, what: string): void {
  expect(res.headers['content-type'] ?? '', `${what} is labelled as JSON, got Content-Type "${res.headers['content-type'] ?? ''}"`).toMatch(/^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i);
  expectErrorResponse(res, status, what);
}

/** A trigger whose JSON body is exactly `bytes` long: its payload pads it. */
function triggerOfBytes(body: Record<string, unknown>, bytes: number): string {
  const skeleton = JSON.stringify({ ...body, payload: { blob: '' } });
  return JSON.stringify({ ...body, payload: { blob: 'x'.repeat(bytes - Buffer.byteLength(skeleton)) } });
}

// The limit refuses what is over 512 KB (ERR-05), so a body of exactly 512 KiB is a valid trigger: the last byte counts.
for (const framing of ['with Content-Length', 'with chunked transfer coding'] as const) {
  conformance('TRIG-01', `a trigger body of exactly 512 KiB (524,288 bytes) sent ${framing} is not over the limit and gets 201`, async ({ api, provision }) => {
    const wf = await provision.workflow();
    const { subscriberId } = await provision.subscriber();
    const rawBody = triggerOfBytes({ name: wf.workflowId, to: [subscriberId] }, TRIGGER_LIMIT_BYTES);
    const res = await api.post('/v1/events/trigger', undefined, { rawBody, contentType: 'application/json', chunked: framing !== 'with Content-Length' });
    expect(res.status, `a trigger body of exactly ${TRIGGER_LIMIT_BYTES} bytes (${framing}) is not over 512 KB: a valid trigger is answered 201, got ${res.status} ${res.text.slice(0, 200)}`).toBe(201);
  });
}
