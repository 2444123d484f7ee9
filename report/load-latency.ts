// The latency table of a load run's HTML section: p50/p90/p99 per route from load.json, read as defensively as the charts.
import { html, type Markup } from './markup.ts';

export interface RouteLatency {
  route: string;
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Each route of a timeline with recorded latency (`routes[name].latencyMs`); routes without one are left out. */
export function routeLatencies(routes: unknown): RouteLatency[] {
  if (!isObject(routes)) return [];
  const out: RouteLatency[] = [];
  for (const [route, summary] of Object.entries(routes)) {
    const q = isObject(summary) && isObject(summary.latencyMs) ? summary.latencyMs : undefined;
    const [count, p50, p90, p99, max] = [q?.count, q?.p50, q?.p90, q?.p99, q?.max].map(num);
    if (count === undefined || p50 === undefined || p90 === undefined || p99 === undefined || max === undefined) continue;
    out.push({ route, count, p50, p90, p99, max });
  }
  return out;
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

/** Latency measured from each request's planned send time, so a generator that fell behind shows in it. */
export function latencyTable(rows: RouteLatency[]): Markup {
  if (rows.length === 0) return html`<p class="muted">Latency was not recorded by this load run.</p>`;
  return html`<table class="latency"><caption>Latency per route, from the planned send time (ms)</caption><thead><tr><th>route</th><th>requests</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr></thead><tbody>${rows.map(
    (r) => html`<tr><td>${r.route}</td><td>${String(r.count)}</td><td>${ms(r.p50)}</td><td>${ms(r.p90)}</td><td>${ms(r.p99)}</td><td>${ms(r.max)}</td></tr>`,
  )}</tbody></table>`;
}
