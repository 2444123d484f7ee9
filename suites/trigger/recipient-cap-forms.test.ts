// TRIG-02 in every form a recipient takes (TRIG-03): the cap counts subscriber-id strings and subscriber objects
// alike — 101 of them as strings or mixed are refused and trigger nothing (the objects-only form, and 100 accepted in
// each form: recipients.test.ts).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { TRIGGER_PATH, expectNothingTriggered, freshRecipients, lastTriggeredAt, RECIPIENT_FORMS, type RecipientObject } from '../../fixtures/trigger/trigger-effects.ts';
import { spareEnvironment } from '../../fixtures/environments/spare-environment.ts';

const MAX_RECIPIENTS = 100;

const objectsIn = (to: (string | RecipientObject)[]) => to.filter((r): r is RecipientObject => typeof r === 'object').map((r) => r.subscriberId);

for (const form of RECIPIENT_FORMS) {
  conformance('TRIG-02', `rejects ${MAX_RECIPIENTS + 1} recipients given as ${form.label} and triggers nothing`, async (ctx) => {
    const { ids, target } = ctx;
    const { api, provision } = spareEnvironment(ctx);
    const wf = await provision.workflow();
    const before = await lastTriggeredAt(api, wf);
    const to = form.write(freshRecipients(ids, provision, MAX_RECIPIENTS + 1));
    const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to });
    expect(res.status >= 400 && res.status < 500, `a trigger with ${MAX_RECIPIENTS + 1} recipients given as ${form.label} is rejected with a 4xx, got ${res.status}`).toBe(true);
    await expectNothingTriggered({ api, target }, { wf, before, subscriberIds: objectsIn(to), why: `a rejected trigger of ${MAX_RECIPIENTS + 1} ${form.label}` });
  });
}
