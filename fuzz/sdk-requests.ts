// Positive requests from the deployed contract: values the official client's request model (@novu/api) allows for
// an operation — null where it is nullable, optional fields left out — turned into the wire body by the model's own
// parse. Where a MUST rule says more than the model (a slug, a 12-hour time, a public bridgeUrl), the generator keeps
// to the rule, each with the rule that says it, so a refusal the rule demands is never reported as CLIENT-04.
import fc, { type Arbitrary } from 'fast-check';
import { REQUEST_BODY_MODELS, sdkWireBody } from '../harness/client/sdk-request-models.ts';
import { arbitraryOf, type Conventions } from './generate/zod-samples.ts';

const slug = fc.stringMatching(/^[a-z0-9]{1,8}(?:[-_.][a-z0-9]{1,8}){0,2}$/);
const nonEmpty = fc.stringMatching(/^[a-z0-9][a-z0-9 ]{0,11}$/);
const twelveHour = fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 59 }), fc.constantFrom('AM', 'PM')).map(([h, m, p]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')} ${p}`);

type Rules = Record<string, Arbitrary<string>>;

/** Per operation: strings a rule constrains (dotted client-form paths, `*` for a record key), and fields left to binding. */
const RULED: Record<string, Rules> = {
  '/v2/workflows': {
    workflowId: slug, // WF-04: a slug
    name: nonEmpty, // WF-03: a workflow has a name
    'steps.name': nonEmpty, // WF-06: a step has a non-empty name
    'steps.stepId': slug, // WF-06: a stepId is a slug
    'agent.identifier': slug, // WF-08: the agent identifier is a slug
  },
  '/v2/subscribers/{subscriberId}/preferences': {
    'schedule.weeklySchedule.monday.hours.start': twelveHour, // PREF-04: hh:mm AM/PM
  },
};

function conventionsFor(template: string): Conventions {
  const ruled = RULED[template] ?? {};
  return {
    string(path) {
      const key = path.join('.');
      if (ruled[key]) return ruled[key];
      // PREF-04: every weekday's hours are 12-hour times
      if (path.includes('hours') && (path.at(-1) === 'start' || path.at(-1) === 'end')) return twelveHour;
      return undefined;
    },
    required: () => false,
  };
}

/** Drops or adjusts what no generator can keep to: TRIG-05's public https bridgeUrl, a topic recipient's `type`. */
function tidy(template: string, value: unknown): unknown {
  if (template !== '/v1/events/trigger' || value === null || typeof value !== 'object') return value;
  const v = { ...(value as Record<string, unknown>) };
  delete v.bridgeUrl;
  // the deployed service tells a topic from a subscriber by `type`: a topic recipient says "Topic" (the model lets them disagree)
  const topical = (r: unknown) => (r !== null && typeof r === 'object' && 'topicKey' in r ? { ...r, type: 'Topic' } : r);
  v.to = Array.isArray(v.to) ? v.to.map(topical) : topical(v.to);
  return v;
}

/** The wire bodies the official client sends for the operation, or undefined when its model has no request body. */
export function sdkBodyArbitrary(template: string): Arbitrary<unknown> | undefined {
  if (!REQUEST_BODY_MODELS[template]) return undefined;
  return arbitraryOf(REQUEST_BODY_MODELS[template].model, conventionsFor(template)).map((value) => {
    const out = sdkWireBody(template, tidy(template, value));
    // the model built the value, so its own parse accepts it; a refusal here is a generator bug, said as such
    if ('problem' in out) throw new Error(`the official client's model refused a value generated from it: ${out.problem}`);
    return out.body;
  });
}

export function sdkModelName(template: string): string | undefined {
  return REQUEST_BODY_MODELS[template]?.name;
}
