// A test split across k6 instances (--execution-segment) writes one timeline per instance; merged, they give the
// verdict one instance would have given, and a missing, doubled or foreign piece is refused with a reason.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadCommand } from '../../cli/commands/load-command.ts';
import { scenarioByName } from '../../load/scenarios/index.ts';
import { planScenario } from '../../load/scenarios/plan.ts';
import type { RouteSummary, Timeline } from '../../load/timeline/format.ts';
import { mergeTimelines } from '../../load/timeline/merge.ts';
import { parseSegment, shareOf as share } from '../../load/timeline/segment.ts';
import { judgeTimelines } from '../../load/verdict/judge.ts';
import { simulate } from './synthetic-target.ts';

const root = mkdtempSync(join(tmpdir(), 'load-merge-tl-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const plan = planScenario(scenarioByName('category-isolation')!, 'short', 200);
const whole = { ...simulate(plan, { rps: { trigger: 200, configuration: 200, global: 600 }, w: 1 }), engine: 'k6' as const };


/** What the instance running `segment` would have recorded (counts split, facts — lag, Remaining — kept), started `offsetMs` late. */
function instance(tl: Timeline, segment: string, offsetMs = 0): Timeline {
  const range = parseSegment(segment)!;
  const route = (r: RouteSummary): RouteSummary => ({
    ...r,
    scheduled: share(r.scheduled, range), sent: share(r.sent, range), dropped: share(r.dropped, range), errors: share(r.errors, range),
    statuses: Object.fromEntries(Object.entries(r.statuses).map(([k, n]) => [k, share(n, range)])),
  });
  return {
    ...structuredClone(tl),
    segment,
    segmentSequence: '0,1/3,1/2,2/3,1',
    runId: `run-${segment}`,
    startedAt: new Date(Date.parse(tl.startedAt) + offsetMs).toISOString(),
    routes: Object.fromEntries(Object.entries(tl.routes).map(([k, r]) => [k, route(r)])),
    buckets: tl.buckets.map((b) => ({ t: b.t, routes: Object.fromEntries(Object.entries(b.routes).map(([k, r]) => [k, Object.fromEntries(Object.entries(r).map(([f, n]) => [f, typeof n === 'number' && f !== 'lagMaxMs' ? share(n, range) : n]))])) })),
  } as Timeline;
}

const verdictsOf = (tls: Timeline[]) => judgeTimelines(tls, 200).map((v) => `${v.id} ${v.verdict} ${v.tests.map((t) => t.status).join(',')}`);

describe('merging the timelines of a split k6 run', () => {
  test('segments are parsed as k6 writes them', () => {
    expect(['0:1/2', '1/2:1', '1/3', '50%:100%', '0.25:0.5'].map(parseSegment)).toEqual([[0, 0.5], [0.5, 1], [0, 1 / 3], [0.5, 1], [0.25, 0.5]]);
    expect(['1:0', 'x', '1/0', '0:2'].map(parseSegment)).toEqual([undefined, undefined, undefined, undefined]);
  });

  test('two or three instances merge into the counts and the verdict of one instance', () => {
    for (const segments of [['0:1/2', '1/2:1'], ['1/3:2/3', '0:1/3', '2/3:1']]) {
      const [merged] = mergeTimelines(segments.map((s) => instance(whole, s)));
      expect(merged!.mergedSegments).toEqual([...segments].sort());
      expect(merged!.routes.trigger!.statuses).toEqual(whole.routes.trigger!.statuses);
      expect(merged!.buckets).toEqual(whole.buckets);
      expect(verdictsOf([merged!])).toEqual(verdictsOf([whole]));
      expect(verdictsOf([merged!]).join('\n')).toMatch(/RL-06 pass/);
    }
  });

  test('an instance that started 300 ms late is placed on the same clock', () => {
    const [merged] = mergeTimelines([instance(whole, '0:1/2'), instance(whole, '1/2:1', 300)]);
    expect(merged!.buckets).toHaveLength(whole.buckets.length + 3);
    expect(merged!.buckets[0]!.routes.trigger!.sent).toBe(share(whole.buckets[0]!.routes.trigger!.sent, [0, 0.5]));
    expect(verdictsOf([merged!])).toEqual(verdictsOf([whole]));
  });

  test('one instance that skipped half a second leaves the merged window not verified', () => {
    const starved = { ...simulate(plan, { rps: { trigger: 200, configuration: 200, global: 600 }, w: 1, skip: { fromMs: 3000, toMs: 3500 } }), engine: 'k6' as const };
    const [merged] = mergeTimelines([instance(whole, '0:1/2'), instance(starved, '1/2:1')]);
    expect(verdictsOf([merged!]).join('\n')).toMatch(/RL-05 not-verified/);
    expect(judgeTimelines([merged!], 200).flatMap((v) => v.tests.map((t) => t.message)).join('\n')).toMatch(/fell behind its schedule in \[[\d.]+ s, [\d.]+ s\) \(\d+ request\(s\) overdue at 3\.50 s/);
  });

  test.each([
    { what: 'a missing instance', parts: () => [instance(whole, '0:1/2')], error: /no timeline covers 0\.5:1 of the test \(an instance's timeline is missing\)/ },
    { what: 'an instance given twice', parts: () => [instance(whole, '0:1/2'), instance(whole, '0:1/2'), instance(whole, '1/2:1')], error: /segments overlap at 0:1\/2/ },
    { what: 'another plan', parts: () => [instance(whole, '0:1/2'), { ...instance(whole, '1/2:1'), plan: planScenario(scenarioByName('category-isolation')!, 'full', 200) }], error: /different plans/ },
    { what: 'instances started apart', parts: () => [instance(whole, '0:1/2'), instance(whole, '1/2:1', 3000)], error: /started 3\.00 s apart: start them together/ },
    { what: 'two separate runs', parts: () => [whole, whole], error: /not all from one split run/ },
  ])('$what is refused', ({ parts, error }) => {
    expect(() => mergeTimelines(parts())).toThrow(error);
  });
});

describe('conformance load --from-timelines', () => {
  const run = async (files: string[], reportDir = join(root, 'report')) => {
    const lines: string[] = [];
    const code = await loadCommand({ scenarios: [], engine: 'node', rateLimitRps: 600, reportDir, allowRemoteLoad: false, profile: 'short', fromTimelines: files }, { log: (s) => lines.push(s) });
    return { code, out: lines.join('\n') };
  };

  test('merges the instances and writes one verdict per rule to load.json', async () => {
    const files = ['0:1/2', '1/2:1'].map((s, i) => {
      const file = join(root, `part-${i}.json`);
      writeFileSync(file, JSON.stringify(instance(whole, s)));
      return file;
    });
    const r = await run(files);
    expect(r.out).toMatch(/category-isolation \(k6, merged from segments 0:1\/2, 1\/2:1\)/);
    expect(r.out).toMatch(/^RL-06 MUST pass$/m);
    expect(r.code).toBe(0);
    const doc = JSON.parse(readFileSync(join(root, 'report', 'load.json'), 'utf8')) as { target: unknown; verdicts: { id: string }[]; timelines: Timeline[] };
    expect(doc.target).toEqual({ fromTimelines: files });
    expect(doc.timelines).toHaveLength(1);
  });

  test('a file that is missing, not JSON or not a timeline exits 2 naming it', async () => {
    writeFileSync(join(root, 'garbage.json'), '{"format":"something-else"}');
    writeFileSync(join(root, 'broken.json'), '{');
    expect(await run([join(root, 'absent.json')])).toMatchObject({ code: 2, out: expect.stringMatching(/cannot read .*absent\.json \(ENOENT\)/) });
    expect(await run([join(root, 'broken.json')])).toMatchObject({ code: 2, out: expect.stringMatching(/broken\.json is not JSON/) });
    expect(await run([join(root, 'garbage.json')])).toMatchObject({ code: 2, out: expect.stringMatching(/garbage\.json is not a load timeline \(format "something-else"/) });
  });

  test('an incomplete split run exits 2 and says which share is missing', async () => {
    const file = join(root, 'half.json');
    writeFileSync(file, JSON.stringify(instance(whole, '0:1/2')));
    expect(await run([file])).toMatchObject({ code: 2, out: expect.stringMatching(/no timeline covers 0\.5:1/) });
  });
});
