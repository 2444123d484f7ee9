// TRIG-02 in every form a recipient takes (TRIG-03): the cap counts subscriber-id strings and subscriber objects
// alike — 101 of them as strings or mixed are refused and trigger nothing, 100 of each are accepted (the objects-only
// form: recipients.test.ts).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { TRIGGER_PATH, expectNothingTriggered, expectTriggered, freshRecipients, lastTriggeredAt, type RecipientObject } from '../../fixtures/trigger/trigger-effects.ts';

const MAX_RECIPIENTS = 100;

/** How a list of subscribers is written in `to`: as id strings, or alternating strings and objects (strings first). */
const FORMS: readonly { label: string; write: (subscribers: RecipientObject[]) => (string | RecipientObject)[] }[] = [
  { label: 'subscriber-id strings', write: (subscribers) => subscribers.map((s) => s.subscriberId) },
  { label: 'id strings and objects mixed', write: (subscribers) => subscribers.map((s, i) => (i % 2 === 0 ? s.subscriberId : s)) },
];

const objectsIn = (to: (string | RecipientObject)[]) => to.filter((r): r is RecipientObject => typeof r === 'object').map((r) => r.subscriberId);

for (const form of FORMS) {
  conformance('TRIG-02', `rejects ${MAX_RECIPIENTS + 1} recipients given as ${form.label} and triggers nothing`, async ({ api, provision, ids, target }) => {
    const wf = await provision.workflow();
    const before = await lastTriggeredAt(api, wf);
    const to = form.write(freshRecipients(ids, provision, MAX_RECIPIENTS + 1));
    const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to });
    expect(res.status >= 400 && res.status < 500, `a trigger with ${MAX_RECIPIENTS + 1} recipients given as ${form.label} is rejected with a 4xx, got ${res.status}`).toBe(true);
    await expectNothingTriggered({ api, target }, { wf, before, subscriberIds: objectsIn(to), why: `a rejected trigger of ${MAX_RECIPIENTS + 1} ${form.label}` });
  });

  conformance('TRIG-02', `accepts exactly ${MAX_RECIPIENTS} recipients given as ${form.label}`, async ({ api, provision, ids, target }) => {
    const wf = await provision.workflow();
    // id strings name existing subscribers: a first accepted trigger of the same subscribers as objects creates them
    const subscribers = freshRecipients(ids, provision, MAX_RECIPIENTS);
    const setup = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: subscribers });
    expect(setup.status, `set-up: a trigger of ${MAX_RECIPIENTS} subscriber objects creates the subscribers the id strings name`).toBe(201);
    await expectTriggered({ api, target }, subscribers.map((s) => s.subscriberId), 'set-up');
    const to = form.write(subscribers);
    const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to });
    expect(res.status, `a trigger with exactly ${MAX_RECIPIENTS} recipients given as ${form.label} is accepted with 201`).toBe(201);
    expect(res.data.acknowledged, `a ${MAX_RECIPIENTS}-recipient trigger of ${form.label} is acknowledged`).toBe(true);
    expect(res.data.status, `a ${MAX_RECIPIENTS}-recipient trigger of ${form.label} to an active workflow with steps is processed`).toBe('processed');
  });
}
