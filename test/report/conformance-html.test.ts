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
});

describe('loadCharts', () => {
  it('turns buckets into per-second rates and draws Remaining when buckets carry it', () => {
    const doc = structuredClone(loadJson) as typeof loadJson & { timelines: { buckets: { routes: { trigger: Record<string, unknown> } }[] }[] };
    doc.timelines[0]!.buckets[0]!.routes.trigger.remaining = { min: 12, max: 40 };
    doc.timelines[0]!.buckets[1]!.routes.trigger.remaining = 3;
    const chart = loadCharts(doc)!.charts[0]!;
    expect(chart.rates.map((s) => s.points[0]![1])).toEqual([800, 600, 200]);
    expect(chart.remaining[0]!.points).toEqual([[0, 12], [0.5, 3]]);
  });

  it('sums short buckets into at most 40 points, keeping the rate per second', () => {
    const buckets = Array.from({ length: 200 }, (_, i) => ({ t: i * 100, routes: { trigger: { scheduled: 10, accepted: 6, throttled: 4 } } }));
    const chart = loadCharts({ ...loadJson, timelines: [{ scenario: 's', bucketMs: 100, buckets }] })!.charts[0]!;
    expect(chart.rates[0]!.points.length).toBeLessThanOrEqual(40);
    expect(chart.rates.map((s) => s.points[3]![1])).toEqual([100, 60, 40]);
  });
});
