// The reference accepts what the deployed contract accepts, unless a rule of RULES.md requires the rejection.
// The three defects found against the published OpenAPI document (3.18.1) are pinned, and a property-based check
// sends requests generated from the official SDK's own request models (seeded) through the SDK itself.
import fc from 'fast-check';
import { NovuCore } from '@novu/api/core.js';
import { layoutsGeneratePreview } from '@novu/api/funcs/layoutsGeneratePreview.js';
import { trigger } from '@novu/api/funcs/trigger.js';
import { LayoutPreviewRequestDto$outboundSchema } from '@novu/api/models/components/layoutpreviewrequestdto.js';
import { TriggerEventRequestDto$outboundSchema } from '@novu/api/models/components/triggereventrequestdto.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sdkOutcome } from '../../harness/client/sdk-outcome.ts';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { arbitraryOf, type Conventions } from '../../fuzz/generate/zod-samples.ts';
import { Client } from './helpers.ts';

const SEED = 20_260_112;

let ref: RunningReference;
let c: Client;
let sdk: NovuCore;
beforeAll(async () => {
  ref = await startReference({ rateLimiting: false });
  c = new Client(ref);
  sdk = new NovuCore({ secretKey: ref.apiKeys.dev, serverURL: ref.baseUrl, retryConfig: { strategy: 'none' } });
  await c.post('/v2/workflows', { name: 'Accept', workflowId: 'accept', steps: [{ name: 'In-app', type: 'in_app' }], active: true });
  await c.post('/v2/layouts', { layoutId: 'accept-layout', name: 'Accept' });
});
afterAll(() => ref.close());

describe('requests the deployed contract accepts (published OpenAPI 3.18.1)', () => {
  it('a trigger with an empty transactionId is processed under a generated transactionId', async () => {
    const r = await c.post('/v1/events/trigger', { name: 'accept', to: ['s1'], transactionId: '' });
    expect(r.status, r.text).toBe(201);
    expect(r.json.data).toMatchObject({ acknowledged: true, status: 'processed' });
    expect(r.json.data.transactionId).toMatch(/^.+$/);
  });

  it('a layout preview with null subscriber names (nullable in SubscriberResponseDtoOptional) is previewed', async () => {
    const subscriber = { firstName: null, lastName: null, email: null, phone: null, avatar: null, locale: null, timezone: null, isOnline: null, lastOnlineAt: null, data: null };
    const r = await c.post('/v2/layouts/accept-layout/preview', { previewPayload: { subscriber } });
    expect(r.status, r.text).toBe(201);
    expect(r.json.data.previewPayloadExample.subscriber).toMatchObject({ firstName: null, lastName: null });
    // LP-05 still holds: a wrong type is rejected
    expect((await c.post('/v2/layouts/accept-layout/preview', { previewPayload: { subscriber: { isOnline: 'yes' } } })).status).toBe(422);
  });

  it('a field error says what is wrong with the value: an empty topic key is empty, not "not a string"', async () => {
    const r = await c.post('/v1/events/trigger', { name: 'accept', to: [{ type: 'Topic', topicKey: '' }] });
    expect(r.status, r.text).toBe(422);
    expect(r.json.errors['to[0].topicKey'].messages).toEqual(['topicKey should not be empty']);
  });

  it('a 405 lists the allowed methods in Allow (RFC 9110 §15.5.6)', async () => {
    const cases: [string, string, string][] = [
      ['PUT', '/v2/workflows', 'POST'],
      ['GET', '/v1/events/trigger', 'POST'],
      ['POST', '/v1/environments', 'GET'],
      ['PATCH', '/v2/topics/t/subscriptions', 'POST, GET, DELETE'],
    ];
    for (const [method, path, allow] of cases) {
      const r = await c.call(method, path);
      expect(r.status, `${method} ${path}`).toBe(405);
      expect(r.headers.allow, `${method} ${path}`).toBe(allow);
    }
  });
});

/** Where a rule requires the rejection, the generator keeps to what the rule allows. */
const conventions = (fixed: Record<string, fc.Arbitrary<unknown>>): Conventions => ({
  string: (path) => fixed[path.join('.')] as fc.Arbitrary<string> | undefined,
  required: () => false,
});
const plainString = fc.stringMatching(/^[a-z0-9]{1,12}$/);

describe('property: requests generated from the official SDK request models are accepted', () => {
  it('trigger: any TriggerEventRequestDto the SDK sends is answered 201, except where a rule rejects', async () => {
    // a recipient names someone (TRIG-10 lets an empty `to` be rejected): a subscriber id, an object's subscriberId,
    // a topic's key (with type Topic)
    const someone = { to: plainString, 'to.subscriberId': plainString, 'to.topicKey': plainString, actor: plainString, 'actor.subscriberId': plainString };
    const named = conventions({ workflowId: fc.constant('accept'), ...someone });
    const body = arbitraryOf(TriggerEventRequestDto$outboundSchema, named).map((value) => {
      const v = value as Record<string, unknown>;
      delete v.bridgeUrl; // TRIG-05: a bridgeUrl must be a public https address, which no generator guarantees
      for (const r of [v.to].flat()) if (r !== null && typeof r === 'object' && 'topicKey' in r) (r as unknown as { type: string }).type = 'Topic';
      return v;
    });
    await fc.assert(
      fc.asyncProperty(body, async (request) => {
        const result = await trigger(sdk, request as never);
        expect(sdkOutcome(result).problem, JSON.stringify(request)).toBeUndefined();
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it('layout preview: any LayoutPreviewRequestDto the SDK sends is previewed', async () => {
    const body = arbitraryOf(LayoutPreviewRequestDto$outboundSchema, conventions({ 'previewPayload.subscriber._id': plainString }));
    await fc.assert(
      fc.asyncProperty(body, async (request) => {
        const result = await layoutsGeneratePreview(sdk, request as never, 'accept-layout');
        expect(sdkOutcome(result).problem, JSON.stringify(request)).toBeUndefined();
      }),
      { seed: SEED, numRuns: 60 },
    );
  });
});
