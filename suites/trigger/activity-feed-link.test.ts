// activityFeedLink, where the answer carries one, leads to the run: the activity feed records a run by its
// transactionId (spec § Events), so a link without it names only the feed (TRIG-11).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { TRIGGER_PATH } from '../../fixtures/trigger/trigger-effects.ts';

/** The link's text with percent-escapes undone wherever they stand (path, query or fragment). */
function decoded(link: string): string {
  try {
    return decodeURIComponent(link);
  } catch {
    return link;
  }
}

conformance('TRIG-11', 'activityFeedLink is a URL naming the run by its transactionId, given or generated', async ({ api, provision, ids, notVerified }) => {
  const wf = await provision.workflow();
  const subscriber = await provision.subscriber();
  let links = 0;
  // A given transactionId with characters a URL must escape, and one the target generates.
  for (const transactionId of [`${ids.slug('txn')}:a/b c`, undefined]) {
    const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [subscriber.subscriberId], ...(transactionId ? { transactionId } : {}) });
    expect(res.status, 'setup: the trigger is accepted with 201').toBe(201);
    const { activityFeedLink: link, transactionId: run } = res.data ?? {};
    if (link === undefined || link === null) continue;
    links++;
    expect(link, 'activityFeedLink is a string').toBeTypeOf('string');
    expect(URL.canParse(link), `activityFeedLink "${link}" is an absolute URL`).toBe(true);
    expect(new URL(link).protocol, `activityFeedLink "${link}" is an http(s) URL`).toMatch(/^https?:$/);
    expect(typeof run === 'string' && run.length > 0, 'the answer names its run (transactionId) so the link can be judged').toBe(true);
    expect(decoded(link).includes(run) || link.includes(run), `activityFeedLink "${link}" names the run: it must carry the transactionId "${run}"`).toBe(true);
  }
  if (links === 0) notVerified('no trigger answer carried activityFeedLink (the rule speaks only where one is present)');
});

conformance('TRIG-11', 'a trigger answered trigger_not_active or no_workflow_steps_defined carries no activityFeedLink, or one naming its transactionId', async ({ api, provision }) => {
  const subscriber = await provision.subscriber();
  const workflows = { trigger_not_active: await provision.workflow({ active: false }), no_workflow_steps_defined: await provision.workflow({ active: true, steps: [] }) };
  for (const [status, wf] of Object.entries(workflows)) {
    const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [subscriber.subscriberId] });
    expect(res.status, `setup: the trigger of a workflow that answers ${status} is answered with 2xx`).toBeLessThan(300);
    const { activityFeedLink: link, transactionId: run } = res.data ?? {};
    if (link === undefined || link === null) continue;
    expect(typeof run === 'string' && run.length > 0, `the ${status} answer carries activityFeedLink "${link}", so it names a run: it must carry that run's transactionId`).toBe(true);
    expect(decoded(link).includes(run) || link.includes(run), `activityFeedLink "${link}" of the ${status} answer names its run: it must carry the transactionId "${run}"`).toBe(true);
  }
});
