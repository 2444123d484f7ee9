// Each operation is served under the version prefix the spec lists for it, and only there (VER-01).
import { expect } from 'vitest';
import { conformance, type ConformanceContext } from '../../fixtures/conformance.ts';
import { OPERATIONS, operationLabel } from '../../harness/operations.ts';
import { otherPrefix, prepareCall } from '../../fixtures/versioning/operation-calls.ts';

for (const op of OPERATIONS) {
  const prefix = op.template.slice(0, 3);

  conformance('VER-01', `${operationLabel(op)} answers under ${prefix}`, async (ctx) => {
    const call = await prepareCall(op, ctx);
    registerWorkflowRemoval(ctx, call.body);
    const res = await ctx.api.request(op.method, call.path, { body: call.body });
    expect(call.success, `${op.method} ${call.path} on existing state is served under ${prefix} and succeeds (${call.success.join(' or ')}), got ${res.status}`).toContain(res.status);
  });

  // SHOULD: the deployed service keeps legacy operations under other prefixes (e.g. POST /v1/workflows), so a
  // target serving the other prefix is reported, not judged non-conformant.
  conformance(
    'VER-01',
    `${operationLabel(op)} is not served under the other version prefix`,
    async (ctx) => {
      const call = await prepareCall(op, ctx);
      const moved = otherPrefix(call.path);
      registerWorkflowRemoval(ctx, call.body);
      const res = await ctx.api.request(op.method, moved, { body: call.body });
      expect([404, 405], `${op.method} ${moved} (the operation under the wrong prefix) must not be served: 404 or 405, got ${res.status}`).toContain(res.status);
    },
    { level: 'SHOULD' },
  );
}

/** A workflow the calls above may create (under either prefix, whatever shape comes back) is removed by its workflowId. */
function registerWorkflowRemoval({ cleanup }: ConformanceContext, body: unknown): void {
  const workflowId = (body as { workflowId?: unknown } | undefined)?.workflowId;
  if (typeof workflowId === 'string') cleanup.remove(`workflow ${workflowId}`, `/v2/workflows/${encodeURIComponent(workflowId)}`);
}
