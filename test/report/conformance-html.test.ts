import { describe, expect, it } from 'vitest';
import { conformanceHtml } from '../../report/conformance-html.ts';
import { loadCharts } from '../../report/load-charts.ts';
import { escapeMarkup } from '../../report/markup.ts';
import { REQUIREMENTS } from '../../requirements/index.ts';
import { HOSTILE, sampleReport } from './sample-report.ts';

const loadJson = {
  format: 'notification-api-conformance/load',
  startedAt: '2026-01-01T00:02:00Z',
  timelines: [
    {
      scenario: 'trigger-limit',
      bucketMs: 500,
      routes: { trigger: { remainingAccepted: { min: 0, max: 599 }, remainingThrottled: { min: 0, max: 0 } } },
      buckets: [
        { t: 0, routes: { trigger: { scheduled: 400, accepted: 300, throttled: 100 } } },
        { t: 500, routes: { trigger: { scheduled: 400, accepted: 300, throttled: 100 } } },
      ],
    },
  ],
};

describe('conformanceHtml', () => {
  const page = conformanceHtml(sampleReport());

  it('is one self-contained page: no external script, style, image or font', () => {
    expect(page).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?https?:/i);
    expect(page).not.toMatch(/@import|url\(\s*['"]?https?:/i);
  });

  it('shows the verdict, the target, the versions and every rule of the catalog', () => {
    expect(page).toContain('NON-CONFORMANT');
    expect(page).toContain('http://127.0.0.1:1');
    expect(page).toContain('bearer-accepted');
    expect(page).toContain('idempotency on · rate limiting off (RL rules not applicable) · trigger limit 60/s (a plan of the deployed service; RL-05 is judged at this rate)');
    for (const rule of REQUIREMENTS) expect(page).toContain(`>${rule.id}<`);
    expect(page.match(/<tr class="rule"/g)).toHaveLength(REQUIREMENTS.length);
  });

  it('shows each failure with its rule text, what came back and the curl reproducer', () => {
    const card = page.slice(page.indexOf('id="fail-AUTH-03"'));
    const text = REQUIREMENTS.find((r) => r.id === 'AUTH-03')!.text;
    expect(card).toContain(escapeMarkup(text).replace(/`([^`]+)`/g, '<code>$1</code>'));
    expect(card).toContain('<code>Bearer &lt;valid key&gt;</code>');
    expect(card).toContain('expected 401, got 200');
    expect(card).toContain('body: {&quot;data&quot;:[]}');
    expect(card).toMatch(/curl reproducer<\/span><pre>curl -sS -i -X GET/);
  });

  it('opens with the root causes, each with the rules it breaks and an example to reproduce, before the matrix', () => {
    const causes = page.indexOf('<section id="root-causes">');
    expect(causes).toBeGreaterThan(0);
    expect(causes).toBeLessThan(page.indexOf('id="matrix"'));
    expect(page).toMatch(/<div class="why">1 root cause breaks 1 MUST rule: expected 401, got 200<\/div>/);
    const section = page.slice(causes, page.indexOf('</section>', causes));
    expect(section).toContain('<a class="v v-fail" href="#fail-AUTH-03"');
    expect(section).toMatch(/curl reproducer<\/span><pre>curl -sS -i -X GET/);
  });

  it('escapes what tests and targets wrote', () => {
    expect(page).not.toContain(HOSTILE);
    expect(page).toContain('&lt;/pre&gt;&lt;script&gt;alert(&quot;x&quot;)');
  });

  it('has a filter button per verdict', () => {
    for (const v of ['all', 'fail', 'warn', 'pass', 'not-verified', 'not-applicable']) expect(page).toContain(`data-filter="${v}"`);
  });

  it('draws the load charts when load.json has a known shape, and nothing otherwise', () => {
    const withLoad = conformanceHtml(sampleReport(), loadJson);
    expect(withLoad).toContain('<section id="load">');
    expect(withLoad.match(/<svg class="chart"/g)).toHaveLength(1);
    expect(withLoad).toContain('range seen — trigger: 0–599 on 2xx, 0–0 on 429');
    for (const odd of [undefined, null, 42, 'x', { format: 'other' }, { format: loadJson.format, timelines: [{ bucketMs: 'x' }] }, { format: loadJson.format, timelines: [{ bucketMs: 1000, buckets: [{ routes: [1] }] }] }]) {
      expect(conformanceHtml(sampleReport(), odd)).not.toContain('<section id="load">');
    }
  });

  it('shows each route\'s latency percentiles from load.json, and says so when none were recorded', () => {
    const doc = structuredClone(loadJson) as unknown as { timelines: { routes: Record<string, Record<string, unknown>> }[] };
    doc.timelines[0]!.routes.trigger!.latencyMs = { count: 800, mean: 4, p50: 3.25, p90: 8.5, p99: 41.75, max: 212 };
    doc.timelines[0]!.routes['<b>odd</b>'] = { latencyMs: { count: 2, p50: 'x', p90: 1, p99: 1, max: 1 } };
    const section = conformanceHtml(sampleReport(), doc).split('<section id="load">')[1]!;
    expect(section).toContain('<caption>Latency per route, from the planned send time (ms)</caption>');
    expect(section).toContain('<tr><td>trigger</td><td>800</td><td>3.3</td><td>8.5</td><td>41.8</td><td>212</td></tr>');
    expect(section).not.toContain('odd');
    expect(conformanceHtml(sampleReport(), loadJson)).toContain('Latency was not recorded by this load run.');
  });
});

describe('loadCharts', () => {
  it('turns buckets into per-second rates and draws Remaining when buckets carry it', () => {
    const doc = structuredClone(loadJson) as typeof loadJson & { timelines: { buckets: { routes: { trigger: Record<string, unknown> } }[] }[] };
    doc.timelines[0]!.buckets[0]!.routes.trigger.remaining = { min: 12, max: 40 };
    doc.timelines[0]!.buckets[1]!.routes.trigger.remaining = 3;
    const chart = loadCharts(doc)!.charts[0]!;
    expect(chart.rates.map((s) => [s.name, s.points[0]![1]])).toEqual([['planned', 800], ['sent', 800], ['accepted (2xx)', 600], ['429', 200]]);
    expect(chart.remaining[0]!.points).toEqual([[0, 12], [0.5, 3]]);
  });

  it('draws runs up to 20 s per 100 ms and longer ones per second, keeping the rate per second', () => {
    const buckets = (n: number) => Array.from({ length: n }, (_, i) => ({ t: i * 100, routes: { trigger: { scheduled: 10, sent: 10, accepted: 6, throttled: 4 } } }));
    const short = loadCharts({ ...loadJson, timelines: [{ scenario: 's', bucketMs: 100, buckets: buckets(200) }] })!.charts[0]!;
    expect(short.rates[0]!.points).toHaveLength(200);
    const long = loadCharts({ ...loadJson, timelines: [{ scenario: 's', bucketMs: 100, buckets: buckets(400) }] })!.charts[0]!;
    expect(long.rates[0]!.points).toHaveLength(40);
    expect(long.rates.map((s) => s.points[3]![1])).toEqual([100, 100, 60, 40]);
  });

  it('draws what was sent beside what was planned: a generator that stalled shows its gap and its burst, and what it dropped', () => {
    const buckets = [30, 30, 0, 60, 25].map((sent, i) => ({ t: i * 100, routes: { trigger: { scheduled: 30, sent, accepted: sent, throttled: 0, dropped: i === 4 ? 5 : 0 } } }));
    const chart = loadCharts({ ...loadJson, timelines: [{ scenario: 's', bucketMs: 100, buckets }] })!.charts[0]!;
    const byName = Object.fromEntries(chart.rates.map((s) => [s.name, s.points.map((p) => p[1])]));
    expect(byName).toEqual({ planned: [300, 300, 300, 300, 300], sent: [300, 300, 0, 600, 250], 'accepted (2xx)': [300, 300, 0, 600, 250], '429': [0, 0, 0, 0, 0], 'dropped by the generator': [0, 0, 0, 0, 50] });
  });

  it('draws the declared limit with RL-05\'s envelope and shades the intervals a rule failed or could not be judged', () => {
    const verdicts = [{ id: 'RL-05', tests: [
      { name: 'load trigger-limit (node): accepted trigger rate converges [RL-05]', status: 'not-verified', message: 'the load generator fell behind its schedule in [0.20 s, 0.80 s) (…)' },
      { name: 'load trigger-limit (node): accepted trigger tokens in every interval [RL-05]', status: 'failed', message: 'too many', evidence: ['policy: x', 'tightest interval [0 s, 1 s): 900 tokens'] },
      { name: 'load other (node): something [RL-05]', status: 'failed', message: 'in [5 s, 6 s)' },
    ] }];
    const chart = loadCharts({ ...loadJson, expectedRps: 600, verdicts })!.charts[0]!;
    expect(chart.limit).toBe(600);
    expect(chart.bands).toEqual([
      { fromS: 0.2, toS: 0.8, kind: 'not-judged', label: 'RL-05 not judged 0.20–0.80 s' },
      { fromS: 0, toS: 1, kind: 'failed', label: 'RL-05 failed 0–1 s' },
    ]);
    const page = conformanceHtml(sampleReport(), { ...loadJson, expectedRps: 600, verdicts });
    expect(page).toContain('declared limit 600/s, RL-05 envelope ±5 %');
    expect(page).toContain('RL-05 not judged 0.20–0.80 s');
    expect(page.match(/<rect [^>]*fill="#fde68a"/g)).toHaveLength(1);
  });

  it('puts a small chart of its scenario inside a rate-limit root-cause card', () => {
    const report = sampleReport();
    report.rootCauses = [{ ...report.rootCauses[0]!, rules: ['RL-05'], example: { rule: 'RL-05', test: 'load trigger-limit (node): accepted trigger rate converges [RL-05]', message: 'accepted 143/s' } }];
    const page = conformanceHtml(report, loadJson);
    const card = page.slice(page.indexOf('<section id="root-causes">'), page.indexOf('</section>', page.indexOf('<section id="root-causes">')));
    expect(card).toContain('<svg class="chart" viewBox="0 0 420 160"');
    expect(card).toContain('trigger-limit: what the load run sent and the target accepted');
  });
});
