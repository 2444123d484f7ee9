// IDEM-02 over time: a completed key is kept 24 h (provisioning.md), so its repeat is still a replay well after the
// moment the other IDEM-02 tests repeat it in. A long check: it waits on the target's clock (--long-checks).
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { expectCreatedOnce, expectReplayOf, keyedWorkflowCreation } from '../../fixtures/idempotency/replay.ts';

/** Past a retention of seconds (a cache whose TTL was set in the wrong unit, or left at a library's default). */
const REPEAT_AFTER_MS = 25_000;

conformance('IDEM-02', `a keyed workflow creation repeated ${REPEAT_AFTER_MS / 1000} s later is still replayed and creates nothing`, async (ctx) => {
  const { workflowId, first, repeat } = await keyedWorkflowCreation(ctx);
  await sleep(REPEAT_AFTER_MS);
  expectReplayOf(await repeat(), first, `workflow creation ${REPEAT_AFTER_MS / 1000} s later (the key is kept 24 h)`);
  await expectCreatedOnce(ctx, workflowId, first);
}, { needs: ['longChecks'], timeoutMs: inject('target').timeouts.testMs + REPEAT_AFTER_MS, buckets: { 'primary configuration': 'reads', 'primary global': 'reads' } });
