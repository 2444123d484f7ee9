// Optional trigger fields in their documented shapes (TRIG-09): actor, tenant, context, overrides, agentId.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import type { ConformanceContext } from '../../fixtures/conformance.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';
import { TRIGGER_PATH, expectTriggered, freshRecipients } from '../../fixtures/trigger/trigger-effects.ts';

/** Triggers a fresh workflow for one existing subscriber with the extra fields; returns the response. */
async function triggerWith(ctx: ConformanceContext, extra: (wf: { workflowId: string; steps?: unknown }) => Record<string, unknown> | Promise<Record<string, unknown>>): Promise<ApiResponse> {
  const wf = await ctx.provision.workflow();
  const subscriber = await ctx.provision.subscriber();
  return ctx.api.post(TRIGGER_PATH, { name: wf.workflowId, to: [subscriber.subscriberId], ...(await extra(wf)) });
}

function expectAccepted(res: ApiResponse, what: string): void {
  expect(res.status, `a trigger with ${what} is accepted with 201`).toBe(201);
  expect(res.data).toMatchSchema('TriggerEventResponseDto');
  expect(res.data.acknowledged, `a trigger with ${what} is acknowledged`).toBe(true);
  expect(res.data.status, `a trigger with ${what} of an active workflow with steps is processed`).toBe('processed');
}

conformance('TRIG-09', 'accepts `actor` as a subscriber id string', async (ctx) => {
  const actor = await ctx.provision.subscriber();
  expectAccepted(await triggerWith(ctx, () => ({ actor: actor.subscriberId })), '`actor` as a subscriberId string');
});

conformance('TRIG-09', 'accepts `actor` as a subscriber object and creates that subscriber', async (ctx) => {
  const [actor] = freshRecipients(ctx.ids, ctx.provision, 1, 'actor');
  expectAccepted(await triggerWith(ctx, () => ({ actor })), '`actor` as a subscriber object');
  await expectTriggered(ctx, [actor!.subscriberId], 'a new actor object creates a new subscriber');
});

conformance('TRIG-09', 'accepts `tenant` as an identifier string', async (ctx) => {
  expectAccepted(await triggerWith(ctx, () => ({ tenant: ctx.ids.slug('tenant') })), '`tenant` as a string');
});

conformance('TRIG-09', 'accepts `tenant` as a tenant object', async (ctx) => {
  const tenant = { identifier: ctx.ids.slug('tenant'), name: 'Conformance tenant', data: { plan: 'team' } };
  expectAccepted(await triggerWith(ctx, () => ({ tenant })), '`tenant` as an object');
});

conformance('TRIG-09', 'accepts a `context` map of string keys to string values', async (ctx) => {
  expectAccepted(await triggerWith(ctx, () => ({ context: { tenant: 'acme', region: 'eu' } })), 'a `context` object');
});

conformance('TRIG-09', 'accepts `overrides` with steps, channels, providers and per-channel objects', async (ctx) => {
  const res = await triggerWith(ctx, (wf) => {
    const stepId = (wf.steps as { stepId?: string }[] | undefined)?.[0]?.stepId ?? 'in-app';
    return {
      overrides: {
        steps: { [stepId]: { providers: { novu: {} } } },
        channels: { email: {} },
        providers: { sendgrid: { customData: { campaign: 'conformance' } } },
        email: { from: 'conformance@example.com' },
        push: {},
        sms: {},
        chat: {},
      },
    };
  });
  expectAccepted(res, '`overrides` in the documented shape');
});

conformance('TRIG-09', 'accepts `overrides` holding only some of its documented parts (each part is optional)', async (ctx) => {
  // The spec lists what `overrides` may hold, none of it required (RULES.md: a trigger needs only `name` and `to`).
  expectAccepted(await triggerWith(ctx, () => ({ overrides: { email: { from: 'conformance@example.com' } } })), '`overrides` with only a per-channel object');
  expectAccepted(await triggerWith(ctx, () => ({ overrides: { providers: { sendgrid: { customData: { campaign: 'conformance' } } } } })), '`overrides` with only a `providers` map');
});

conformance('TRIG-09', 'accepts `overrides` naming a layout: `layoutId` in a step and in `channels.email`, and `layoutIdentifier`', async (ctx) => {
  const layout = await ctx.provision.layout();
  const res = await triggerWith(ctx, (wf) => {
    const stepId = (wf.steps as { stepId?: string }[] | undefined)?.[0]?.stepId ?? 'in-app';
    return {
      overrides: {
        steps: { [stepId]: { providers: { novu: {} }, layoutId: layout.layoutId } },
        channels: { email: { layoutId: layout.layoutId } },
        layoutIdentifier: layout.layoutId,
      },
    };
  });
  expectAccepted(res, '`overrides` naming a layout in the documented places');
});

conformance(
  'TRIG-09',
  'accepts `layoutId: null` in overrides (removes the layout), as the deployed contract documents',
  async (ctx) => {
    // The spec shows no type for `layoutId`; the official client's StepsOverrides and EmailChannelOverrides: string or null.
    const res = await triggerWith(ctx, (wf) => {
      const stepId = (wf.steps as { stepId?: string }[] | undefined)?.[0]?.stepId ?? 'in-app';
      return { overrides: { steps: { [stepId]: { layoutId: null } }, channels: { email: { layoutId: null } } } };
    });
    expectAccepted(res, '`layoutId: null` in a step and in `channels.email`');
  },
  { level: 'SHOULD' },
);

conformance('TRIG-09', 'accepts `agentId` as a public agent identifier string', async (ctx) => {
  const agent = await ctx.provision.agent();
  expectAccepted(await triggerWith(ctx, () => ({ agentId: agent.identifier })), '`agentId` as a string');
});

conformance('TRIG-09', 'accepts `agentId: null` to disable agent routing', async (ctx) => {
  expectAccepted(await triggerWith(ctx, () => ({ agentId: null })), '`agentId: null`');
});
