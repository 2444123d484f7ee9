// IDEM-02 over time: a completed key is kept 24 h (provisioning.md), so its repeat is still a replay well after the
// moment the other IDEM-02 tests repeat it in. A long check: it waits on the target's clock (--long-checks).
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, inject } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { expectSuccess } from '../../fixtures/idempotency/eight-operations.ts';
import { freshKey, isReplay, withKey } from '../../fixtures/idempotency/keys.ts';

/** Past a retention of seconds (a cache whose TTL was set in the wrong unit, or left at a library's default). */
const REPEAT_AFTER_MS = 25_000;

conformance('IDEM-02', `a keyed workflow creation repeated ${REPEAT_AFTER_MS / 1000} s later is still replayed and creates nothing`, async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  cleanup.remove(`workflow ${workflowId}`, `/v2/workflows/${workflowId}`);
  const body = { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'in-app', type: 'in_app' }] };
  const key = freshKey(ids);

  const first = await api.post('/v2/workflows', body, withKey(key));
  expectSuccess(first, 'the first workflow creation');
  await sleep(REPEAT_AFTER_MS);
  // Processed again, this request would be a duplicate workflowId (409 or 400), not the cached 201.
  const repeat = await api.post('/v2/workflows', body, withKey(key));
  expect(repeat.status, `the key is kept 24 h: the repeat ${REPEAT_AFTER_MS / 1000} s later must return the cached status ${first.status}, got ${repeat.status}: ${repeat.text.slice(0, 300)}`).toBe(first.status);
  expect(isReplay(repeat), `the repeat ${REPEAT_AFTER_MS / 1000} s later must carry Idempotency-Replay: true`).toBe(true);
  expect(repeat.json, "the repeat must return a body equal to the first response's").toEqual(first.json);
}, { needs: ['longChecks'], timeoutMs: inject('target').timeouts.testMs + REPEAT_AFTER_MS, buckets: { 'primary configuration': 'reads', 'primary global': 'reads' } });
