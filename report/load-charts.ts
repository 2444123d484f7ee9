// Charts of a load run for conformance.html, drawn as inline SVG from DIR/load.json (written by load/).
// load.json belongs to another module and may change shape: it is read defensively, and whatever is not
// recognised is skipped rather than drawn wrong.
import { latencyTable, routeLatencies, type RouteLatency } from './load-latency.ts';
import { html, raw, type Markup } from './markup.ts';

export interface Series {
  name: string;
  color: string;
  dashed?: boolean;
  points: [number, number][];
}

/** A stretch of time a rule was judged on and failed, or could not be judged. */
export interface Band {
  fromS: number;
  toS: number;
  kind: 'failed' | 'not-judged';
  label: string;
}

export interface ScenarioChart {
  scenario: string;
  rates: Series[];
  remaining: Series[];
  remainingNote?: string;
  /** The declared trigger limit (per second) and RL-05's ±5 % envelope around it, for scenarios with trigger traffic. */
  limit?: number;
  bands: Band[];
  /** p50/p90/p99 per route, where the timeline recorded them. */
  latency: RouteLatency[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The charts of each timeline of a load.json, or undefined when the document is not one this code knows. */
export function loadCharts(doc: unknown): { startedAt?: string; charts: ScenarioChart[] } | undefined {
  if (!isObject(doc) || doc.format !== 'notification-api-conformance/load' || !Array.isArray(doc.timelines)) return undefined;
  const limit = num(doc.expectedRps);
  const tests = Array.isArray(doc.verdicts) ? doc.verdicts.flatMap((v) => (isObject(v) && Array.isArray(v.tests) ? v.tests.filter(isObject) : [])) : [];
  const charts = doc.timelines.map((t) => timelineChart(t, limit, tests)).filter((c): c is ScenarioChart => c !== undefined);
  if (charts.length === 0) return undefined;
  return { ...(typeof doc.startedAt === 'string' ? { startedAt: doc.startedAt } : {}), charts };
}

interface Bin {
  planned: number;
  sent: number;
  accepted: number;
  throttled: number;
  dropped: number;
  rem?: number;
}

function timelineChart(timeline: unknown, limit: number | undefined, tests: Record<string, unknown>[]): ScenarioChart | undefined {
  if (!isObject(timeline) || !Array.isArray(timeline.buckets)) return undefined;
  const bucketMs = num(timeline.bucketMs);
  if (!bucketMs || bucketMs <= 0) return undefined;
  const parsed: (Bin & { t: number })[] = [];
  let lastT = 0;
  let trigger = false;
  for (const [i, bucket] of timeline.buckets.entries()) {
    if (!isObject(bucket) || !isObject(bucket.routes)) return undefined;
    const t = num(bucket.t) ?? i * bucketMs;
    const b: Bin & { t: number } = { t, planned: 0, sent: 0, accepted: 0, throttled: 0, dropped: 0 };
    for (const [name, route] of Object.entries(bucket.routes)) {
      if (!isObject(route)) return undefined;
      if (name.startsWith('trigger')) trigger = true;
      b.planned += num(route.scheduled) ?? 0;
      // why: a timeline without `sent` (an older k6 layout) sent what got an answer
      b.sent += num(route.sent) ?? (num(route.accepted) ?? 0) + (num(route.throttled) ?? 0) + (num(route.other) ?? 0);
      b.accepted += num(route.accepted) ?? 0;
      b.throttled += num(route.throttled) ?? 0;
      b.dropped += num(route.dropped) ?? 0;
      // Per-bucket Remaining is optional: a number or {min, max}; the lowest of all routes is drawn.
      const r = num(route.remaining) ?? (isObject(route.remaining) ? num(route.remaining.min) : undefined);
      if (r !== undefined) b.rem = b.rem === undefined ? r : Math.min(b.rem, r);
    }
    parsed.push(b);
    lastT = Math.max(lastT, t);
  }
  // why: per 100 ms a generator that stalls and catches up shows as it happened; long runs are drawn per second
  const spanMs = lastT + bucketMs;
  const binMs = spanMs <= FINE_SPAN_MS ? bucketMs : Math.max(1000, Math.ceil(spanMs / MAX_POINTS / 1000) * 1000);
  const bins = new Map<number, Bin>();
  for (const b of parsed) {
    const key = Math.floor(b.t / binMs) * binMs;
    const bin = bins.get(key) ?? { planned: 0, sent: 0, accepted: 0, throttled: 0, dropped: 0 };
    bin.planned += b.planned;
    bin.sent += b.sent;
    bin.accepted += b.accepted;
    bin.throttled += b.throttled;
    bin.dropped += b.dropped;
    if (b.rem !== undefined) bin.rem = bin.rem === undefined ? b.rem : Math.min(bin.rem, b.rem);
    bins.set(key, bin);
  }
  const perSecond = 1000 / binMs;
  const sorted = [...bins].sort((x, y) => x[0] - y[0]);
  const line = (field: keyof Omit<Bin, 'rem'>): [number, number][] => sorted.map(([key, bin]) => [key / 1000, bin[field] * perSecond]);
  const remainingMin = sorted.filter(([, bin]) => bin.rem !== undefined).map(([key, bin]): [number, number] => [key / 1000, bin.rem!]);
  const scenario = typeof timeline.scenario === 'string' ? timeline.scenario : 'scenario';
  const dropped = line('dropped');
  const chart: ScenarioChart = {
    scenario,
    rates: [
      { name: 'planned', color: '#9ca3af', dashed: true, points: line('planned') },
      { name: 'sent', color: '#111827', points: line('sent') },
      { name: 'accepted (2xx)', color: '#15803d', points: line('accepted') },
      { name: '429', color: '#b91c1c', points: line('throttled') },
      ...(dropped.some(([, v]) => v > 0) ? [{ name: 'dropped by the generator', color: '#d97706', points: dropped }] : []),
    ],
    remaining: remainingMin.length > 0 ? [{ name: 'RateLimit-Remaining (lowest)', color: '#1d4ed8', points: remainingMin }] : [],
    ...(trigger && limit !== undefined ? { limit } : {}),
    bands: bandsOf(scenario, tests),
    latency: routeLatencies(timeline.routes),
  };
  if (remainingMin.length === 0) chart.remainingNote = remainingRange(timeline.routes);
  return chart;
}

const INTERVAL = /\[(\d+(?:\.\d+)?) s, (\d+(?:\.\d+)?) s\)/;

/** The interval each failed or unjudged load test of the scenario names (in its message, else its evidence). */
function bandsOf(scenario: string, tests: Record<string, unknown>[]): Band[] {
  const bands: Band[] = [];
  for (const t of tests) {
    const name = typeof t.name === 'string' ? t.name : '';
    if (!name.startsWith(`load ${scenario} (`) || (t.status !== 'failed' && t.status !== 'not-verified')) continue;
    const texts = [t.message, ...(Array.isArray(t.evidence) ? t.evidence : [])].filter((x): x is string => typeof x === 'string');
    const m = texts.map((x) => INTERVAL.exec(x)).find((x) => x !== null);
    if (!m) continue;
    const rule = /\[([A-Z]+-\d+)\]$/.exec(name)?.[1] ?? '';
    const kind = t.status === 'failed' ? 'failed' : 'not-judged';
    if (!bands.some((b) => b.kind === kind && b.fromS === Number(m[1]) && b.toS === Number(m[2]))) {
      bands.push({ fromS: Number(m[1]), toS: Number(m[2]), kind, label: `${rule} ${kind === 'failed' ? 'failed' : 'not judged'} ${m[1]}–${m[2]} s` });
    }
  }
  return bands;
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

const MAX_POINTS = 300;
/** Runs up to this long are drawn per bucket (100 ms); longer ones per second or more. */
const FINE_SPAN_MS = 20_000;
const PAD = { left: 48, right: 12, top: 12, bottom: 30 };
const BAND_COLORS = { failed: '#fecaca', 'not-judged': '#fde68a' } as const;

export interface ChartExtras {
  /** A horizontal line (the declared limit) with a band of ±share around it (RL-05's envelope). */
  limit?: { value: number; share: number; label: string };
  bands?: Band[];
  /** Drawn smaller (inside a root-cause card). */
  small?: boolean;
}

/** A line chart of the series; x in seconds. Only numbers reach the SVG; names are escaped. */
export function lineChart(title: string, series: Series[], yLabel: string, extras: ChartExtras = {}): Markup {
  const W = extras.small ? 420 : 640;
  const H = extras.small ? 160 : 220;
  const all = series.flatMap((s) => s.points);
  const bands = extras.bands ?? [];
  const xMax = Math.max(1, ...all.map((p) => p[0]), ...bands.map((b) => b.toS));
  const top = Math.max(1, ...all.map((p) => p[1]), extras.limit ? extras.limit.value * (1 + extras.limit.share) : 0);
  const yStep = niceCeil(top / 4);
  const yMax = yStep * Math.ceil(top / yStep);
  const x = (v: number) => PAD.left + (Math.min(v, xMax) / xMax) * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - (v / yMax) * (H - PAD.top - PAD.bottom);
  const yTicks = Array.from({ length: Math.round(yMax / yStep) + 1 }, (_, i) => i * yStep);
  const xStep = niceCeil(xMax / 5);
  const xTicks = Array.from({ length: Math.floor(xMax / xStep) + 1 }, (_, i) => i * xStep);
  const shaded = bands.map((b) => `<rect x="${x(b.fromS).toFixed(1)}" y="${PAD.top}" width="${Math.max(1, x(b.toS) - x(b.fromS)).toFixed(1)}" height="${H - PAD.top - PAD.bottom}" fill="${BAND_COLORS[b.kind]}" opacity=".7"/>`).join('');
  const envelope = extras.limit
    ? `<rect x="${PAD.left}" y="${y(extras.limit.value * (1 + extras.limit.share)).toFixed(1)}" width="${W - PAD.left - PAD.right}" height="${(y(extras.limit.value * (1 - extras.limit.share)) - y(extras.limit.value * (1 + extras.limit.share))).toFixed(1)}" fill="#86efac" opacity=".35"/><line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(extras.limit.value).toFixed(1)}" y2="${y(extras.limit.value).toFixed(1)}" stroke="#15803d" stroke-dasharray="2 3"/>`
    : '';
  const grid = yTicks.map((v) => `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e5e7eb"/><text x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${fmt(v)}</text>`).join('');
  const xAxis = xTicks.map((v) => `<text x="${x(v).toFixed(1)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${fmt(v)} s</text>`).join('');
  const lines = series
    .filter((s) => s.points.length > 0)
    .map((s) => `<polyline fill="none" stroke="${s.color}" stroke-width="${s.dashed ? 1.4 : 1.6}"${s.dashed ? ' stroke-dasharray="6 4"' : ''} points="${s.points.map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(' ')}"/>`)
    .join('');
  const svg = `<svg class="chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img">${shaded}${envelope}<g font-size="11" fill="#374151">${grid}${xAxis}<text x="12" y="${H / 2}" transform="rotate(-90 12 ${H / 2})" text-anchor="middle">${yLabel === 'per second' ? 'per second' : 'remaining'}</text></g>${lines}</svg>`;
  return html`<figure><figcaption>${title}</figcaption>${raw(svg)}<div class="legend">${series.map((s) => html`<span><i style="background:${raw(s.color)}${raw(s.dashed ? ';opacity:.6' : '')}"></i>${s.name}</span>`)}${extras.limit ? html`<span><i style="background:#86efac;height:8px"></i>${extras.limit.label}</span>` : ''}${bands.map((b) => html`<span><i style="background:${raw(BAND_COLORS[b.kind])};height:8px"></i>${b.label}</span>`)}</div></figure>`;
}

/** The rate chart of one scenario: planned, sent, accepted, 429 and dropped, the declared limit with its envelope, the intervals judged badly. */
export function rateChart(c: ScenarioChart, small = false, title = 'Planned vs sent vs accepted vs 429, per second'): Markup {
  const limit = c.limit !== undefined ? { value: c.limit, share: 0.05, label: `declared limit ${fmt(c.limit)}/s, RL-05 envelope ±5 %` } : undefined;
  return lineChart(title, c.rates, 'per second', { ...(limit ? { limit } : {}), bands: c.bands, small });
}

export function loadSection(doc: unknown): Markup {
  const parsed = loadCharts(doc);
  if (!parsed) return html``;
  return html`<section id="load"><h2>Load run</h2>${parsed.startedAt ? html`<p class="muted">load.json of the run started ${parsed.startedAt}</p>` : ''}
  ${parsed.charts.map((c) => html`<h3>${c.scenario}</h3><div class="charts">${rateChart(c)}${c.remaining.length > 0 ? lineChart('RateLimit-Remaining over time', c.remaining, 'remaining', { bands: c.bands }) : html`<p class="muted">${c.remainingNote}</p>`}</div>${latencyTable(c.latency)}`)}</section>`;
}

function niceCeil(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 2.5, 5, 10].map((m) => m * p).find((c) => c >= v) ?? v);
}

function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 1 : 0);
}
