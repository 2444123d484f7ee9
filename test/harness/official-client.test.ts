// The official SDK as a client of the target: its traffic goes through the harness's ApiClient (recorded, redacted,
// authenticated like the primary identity), its retries are off, and what stops it is named by model path.
import { environmentsList } from '@novu/api/funcs/environmentsList.js';
import { workflowsCreate } from '@novu/api/funcs/workflowsCreate.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { officialClient } from '../../harness/client/official-client.ts';
import { sdkOutcome } from '../../harness/client/sdk-outcome.ts';
import { issueLines } from '../../harness/client/zod-issues.ts';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { ApiClient } from '../../harness/http/api-client.ts';
import { toCurl } from '../../harness/http/exchange.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../harness/runner/embedded-target.ts';
import { toProfile } from '../../harness/runner/profile.ts';

let clean: EmbeddedTarget;
let faulty: EmbeddedTarget;
beforeAll(async () => {
  clean = await startEmbeddedTarget([]);
  faulty = await startEmbeddedTarget(['step-origin-missing', 'no-retry-after']);
});
afterAll(async () => {
  await clean.reference.close();
  await faulty.reference.close();
});

describe('officialClient', () => {
  it('sends the SDK’s requests through the recording client, key redacted, as the primary identity', async () => {
    const api = new ApiClient(toProfile(DEFAULT_SETTINGS, clean));
    const result = await environmentsList(officialClient(api));
    expect(sdkOutcome(result).problem).toBeUndefined();
    expect(api.exchanges).toHaveLength(1);
    const [exchange] = api.exchanges;
    expect(exchange!.requestHeaders.authorization).toBe('ApiKey ${CONFORMANCE_API_KEY}');
    expect(exchange!.requestHeaders['user-agent']).toContain('@novu/api');
    expect(exchange!.authenticated).toBe(true);
    expect(toCurl(exchange!)).toContain('"authorization: ApiKey ${CONFORMANCE_API_KEY}"');
    expect(JSON.stringify(api.exchanges)).not.toContain(clean.keys.primary);
  });

  it('names the model path the SDK could not read, and records the exchange it came from', async () => {
    const api = new ApiClient(toProfile(DEFAULT_SETTINGS, faulty));
    const result = await workflowsCreate(officialClient(api), { name: 'x', workflowId: 'sdk-x', steps: [{ name: 'In-app', type: 'in_app' }] as never[] });
    expect(sdkOutcome(result).problem).toBe('ResponseValidationError: the answer does not match its model: Result.steps.0.origin: Required');
    expect(api.exchanges.at(-1)!.status).toBe(201);
  });
});

describe('issueLines', () => {
  it('speaks through the union member whose discriminator matched, and names primitive unions whole', () => {
    const stepMiss = { code: 'invalid_literal', path: ['type'], message: 'Invalid literal value, expected "email"' };
    const union = {
      code: 'invalid_union', path: ['steps', 0], message: 'Invalid input',
      unionErrors: [{ issues: [{ code: 'invalid_type', path: ['steps', 0, 'origin'], message: 'Required' }] }, { issues: [{ ...stepMiss, path: ['steps', 0, 'type'] }] }],
    };
    expect(issueLines({ issues: [union] })).toEqual(['steps.0.origin: Required']);
    const primitive = {
      code: 'invalid_union', path: ['message'], message: 'Invalid input',
      unionErrors: ['string', 'number'].map((expected) => ({ issues: [{ code: 'invalid_type', path: ['message'], message: 'x', expected, received: 'object' }] })),
    };
    expect(issueLines({ issues: [primitive] })).toEqual(['message: Expected string | number, received object']);
  });
});
