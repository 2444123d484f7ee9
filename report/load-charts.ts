// Charts of a load run for conformance.html, drawn as inline SVG from DIR/load.json (written by load/).
// load.json belongs to another module and may change shape: it is read defensively, and whatever is not
// recognised is skipped rather than drawn wrong.
import { html, raw, type Markup } from './markup.ts';

export interface Series {
  name: string;
  color: string;
  dashed?: boolean;
  points: [number, number][];
}

interface ScenarioChart {
  scenario: string;
  rates: Series[];
  remaining: Series[];
  remainingNote?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The charts of each timeline of a load.json, or undefined when the document is not one this code knows. */
export function loadCharts(doc: unknown): { startedAt?: string; charts: ScenarioChart[] } | undefined {
  if (!isObject(doc) || doc.format !== 'notification-api-conformance/load' || !Array.isArray(doc.timelines)) return undefined;
  const charts = doc.timelines.map(timelineChart).filter((c): c is ScenarioChart => c !== undefined);
  if (charts.length === 0) return undefined;
  return { ...(typeof doc.startedAt === 'string' ? { startedAt: doc.startedAt } : {}), charts };
}

function timelineChart(timeline: unknown): ScenarioChart | undefined {
  if (!isObject(timeline) || !Array.isArray(timeline.buckets)) return undefined;
  const bucketMs = num(timeline.bucketMs);
  if (!bucketMs || bucketMs <= 0) return undefined;
  // Sums buckets into about MAX_POINTS bins: 100 ms buckets jitter too much to read a rate from.
  const bins = new Map<number, { o: number; a: number; th: number; rem?: number }>();
  let lastT = 0;
  const parsed: { t: number; o: number; a: number; th: number; rem?: number }[] = [];
  for (const [i, bucket] of timeline.buckets.entries()) {
    if (!isObject(bucket) || !isObject(bucket.routes)) return undefined;
    const t = num(bucket.t) ?? i * bucketMs;
    let o = 0;
    let a = 0;
    let th = 0;
    let rem: number | undefined;
    for (const route of Object.values(bucket.routes)) {
      if (!isObject(route)) return undefined;
      o += num(route.scheduled) ?? 0;
      a += num(route.accepted) ?? 0;
      th += num(route.throttled) ?? 0;
      // Per-bucket Remaining is optional: a number or {min, max}; the lowest of all routes is drawn.
      const r = num(route.remaining) ?? (isObject(route.remaining) ? num(route.remaining.min) : undefined);
      if (r !== undefined) rem = rem === undefined ? r : Math.min(rem, r);
    }
    parsed.push({ t, o, a, th, ...(rem !== undefined ? { rem } : {}) });
    lastT = Math.max(lastT, t);
  }
  const binMs = Math.max(bucketMs, Math.ceil((lastT + bucketMs) / MAX_POINTS / bucketMs) * bucketMs);
  for (const b of parsed) {
    const key = Math.floor(b.t / binMs) * binMs;
    const bin = bins.get(key) ?? { o: 0, a: 0, th: 0 };
    bin.o += b.o;
    bin.a += b.a;
    bin.th += b.th;
    if (b.rem !== undefined) bin.rem = bin.rem === undefined ? b.rem : Math.min(bin.rem, b.rem);
    bins.set(key, bin);
  }
  const perSecond = 1000 / binMs;
  const offered: [number, number][] = [];
  const accepted: [number, number][] = [];
  const throttled: [number, number][] = [];
  const remainingMin: [number, number][] = [];
  for (const [key, bin] of [...bins].sort((x, y) => x[0] - y[0])) {
    const t = key / 1000;
    offered.push([t, bin.o * perSecond]);
    accepted.push([t, bin.a * perSecond]);
    throttled.push([t, bin.th * perSecond]);
    if (bin.rem !== undefined) remainingMin.push([t, bin.rem]);
  }
  const chart: ScenarioChart = {
    scenario: typeof timeline.scenario === 'string' ? timeline.scenario : 'scenario',
    rates: [
      { name: 'offered', color: '#6b7280', dashed: true, points: offered },
      { name: 'accepted (2xx)', color: '#15803d', points: accepted },
      { name: '429', color: '#b91c1c', points: throttled },
    ],
    remaining: remainingMin.length > 0 ? [{ name: 'RateLimit-Remaining (lowest)', color: '#1d4ed8', points: remainingMin }] : [],
  };
  if (remainingMin.length === 0) chart.remainingNote = remainingRange(timeline.routes);
  return chart;
}

/** Without per-second Remaining values, the range each route saw is still worth stating. */
function remainingRange(routes: unknown): string {
  if (!isObject(routes)) return 'RateLimit-Remaining over time was not recorded by this load run.';
  const parts: string[] = [];
  for (const [name, s] of Object.entries(routes)) {
    if (!isObject(s)) continue;
    const range = (m: unknown) => (isObject(m) && num(m.min) !== undefined && num(m.max) !== undefined ? `${m.min}–${m.max}` : undefined);
    const acc = range(s.remainingAccepted);
    const thr = range(s.remainingThrottled);
    if (acc || thr) parts.push(`${name}: ${acc ? `${acc} on 2xx` : ''}${acc && thr ? ', ' : ''}${thr ? `${thr} on 429` : ''}`);
  }
  return `RateLimit-Remaining over time was not recorded by this load run${parts.length > 0 ? `; range seen — ${parts.join('; ')}` : ''}.`;
}

const MAX_POINTS = 40;
const W = 640;
const H = 220;
const PAD = { left: 48, right: 12, top: 12, bottom: 30 };

/** A line chart of the series; x in seconds. Only numbers reach the SVG; names are escaped. */
export function lineChart(title: string, series: Series[], yLabel: string): Markup {
  const all = series.flatMap((s) => s.points);
  const xMax = Math.max(1, ...all.map((p) => p[0]));
  const yStep = niceCeil(Math.max(1, ...all.map((p) => p[1])) / 4);
  const yMax = yStep * Math.ceil(Math.max(1, ...all.map((p) => p[1])) / yStep);
  const x = (v: number) => PAD.left + (v / xMax) * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - (v / yMax) * (H - PAD.top - PAD.bottom);
  const yTicks = Array.from({ length: Math.round(yMax / yStep) + 1 }, (_, i) => i * yStep);
  const xStep = niceCeil(xMax / 5);
  const xTicks = Array.from({ length: Math.floor(xMax / xStep) + 1 }, (_, i) => i * xStep);
  const grid = yTicks.map((v) => `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e5e7eb"/><text x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${fmt(v)}</text>`).join('');
  const xAxis = xTicks.map((v) => `<text x="${x(v).toFixed(1)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${fmt(v)} s</text>`).join('');
  const lines = series
    .filter((s) => s.points.length > 0)
    .map((s) => `<polyline fill="none" stroke="${s.color}" stroke-width="1.8"${s.dashed ? ' stroke-dasharray="6 4"' : ''} points="${s.points.map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(' ')}"/>`)
    .join('');
  const svg = `<svg class="chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img"><g font-size="11" fill="#374151">${grid}${xAxis}<text x="12" y="${H / 2}" transform="rotate(-90 12 ${H / 2})" text-anchor="middle">${yLabel === 'per second' ? 'per second' : 'remaining'}</text></g>${lines}</svg>`;
  return html`<figure><figcaption>${title}</figcaption>${raw(svg)}<div class="legend">${series.map((s) => html`<span><i style="background:${raw(s.color)}${raw(s.dashed ? ';opacity:.6' : '')}"></i>${s.name}</span>`)}</div></figure>`;
}

export function loadSection(doc: unknown): Markup {
  const parsed = loadCharts(doc);
  if (!parsed) return html``;
  return html`<section id="load"><h2>Load run</h2>${parsed.startedAt ? html`<p class="muted">load.json of the run started ${parsed.startedAt}</p>` : ''}
  ${parsed.charts.map((c) => html`<h3>${c.scenario}</h3><div class="charts">${lineChart('Offered vs accepted vs 429, per second', c.rates, 'per second')}${c.remaining.length > 0 ? lineChart('RateLimit-Remaining over time', c.remaining, 'remaining') : html`<p class="muted">${c.remainingNote}</p>`}</div>`)}</section>`;
}

function niceCeil(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 2.5, 5, 10].map((m) => m * p).find((c) => c >= v) ?? v);
}

function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 1 : 0);
}
