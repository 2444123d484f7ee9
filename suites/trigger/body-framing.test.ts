// A valid trigger is accepted however HTTP frames its body (TRIG-01): a body large enough to arrive in several
// pieces, and a body sent with chunked transfer coding instead of a Content-Length (RFC 9112 §6.1).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { TRIGGER_PATH } from '../../fixtures/trigger/trigger-effects.ts';

/** Well under the deployed service's 512 KB payload limit, well over the 64 KB a server reads at once. */
const LARGE_PAYLOAD_BYTES = 200 * 1024;

conformance('TRIG-01', 'accepts a trigger whose payload is 200 KB (under the 512 KB limit)', async ({ api, provision }) => {
  const wf = await provision.workflow();
  const subscriber = await provision.subscriber();
  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [subscriber.subscriberId], payload: { blob: 'x'.repeat(LARGE_PAYLOAD_BYTES) } });
  expect(res.status, `a valid trigger with a payload of ${LARGE_PAYLOAD_BYTES} bytes (under 512 KB) is answered 201, got ${res.status}`).toBe(201);
  expect(res.data.status, 'the large trigger is processed like any other').toBe('processed');
});

conformance('TRIG-01', 'accepts a trigger whose body is sent with chunked transfer coding (no Content-Length)', async ({ api, provision }) => {
  const wf = await provision.workflow();
  const subscriber = await provision.subscriber();
  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [subscriber.subscriberId], payload: { greeting: 'hello' } }, { chunked: true });
  expect(res.status, `a valid trigger sent with Transfer-Encoding: chunked is answered 201, got ${res.status}`).toBe(201);
  expect(res.data.status, 'the chunked trigger is read whole and processed').toBe('processed');
});
