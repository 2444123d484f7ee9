import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';

// A conformant target may never answer 503; when it does, the 503 must say when to come back.
const TRIGGERS = 150;

conformance('RL-10', 'every 503 met during a run of triggers carries Retry-After', async ({ api, provision, notVerified, note }) => {
  const wf = await provision.workflow();
  const recipient = `${wf.workflowId}-rcpt`;
  provision.forgetSubscriber(recipient); // a target may upsert string recipients
  const overloaded = [];
  for (let sent = 0; sent < TRIGGERS; sent += 10) {
    const batch = await Promise.all(
      Array.from({ length: 10 }, () => api.post('/v1/events/trigger', { name: wf.workflowId, to: [recipient] }, { retryOn429: false })),
    );
    overloaded.push(...batch.filter((res) => res.status === 503));
  }
  if (overloaded.length === 0) return notVerified(`no 503 occurred in ${TRIGGERS} triggers, so there was no Retry-After to check (RL-10 holds only where a 503 happens)`);
  note(`${overloaded.length} of ${TRIGGERS} triggers were answered 503`);
  for (const res of overloaded) {
    expect(res.headers['retry-after'] ?? '(no Retry-After)', 'a 503 carries Retry-After (seconds to wait)').toMatch(/^\d+$/);
  }
}, { buckets: { 'primary trigger': 'reads', 'primary configuration': 'reads' } });
