// The root-cause section of conformance.html: each cause once, with every rule it breaks and one example to act on.
import type { ConformanceReport } from './conformance-report.ts';
import { loadCharts, rateChart } from './load-charts.ts';
import { codeSpans, html, type Markup } from './markup.ts';
import { rootCauseCount, type RootCause } from './root-causes.ts';
import type { RuleVerdict } from './verdicts.ts';

/** `loadJson`: DIR/load.json, for a small chart of the load run inside each rate-limit cause it explains. */
export function rootCausesSection(report: ConformanceReport, evidence: (text: string) => Markup, loadJson?: unknown): Markup {
  if (report.rootCauses.length === 0) return html``;
  const verdicts = new Map(report.requirements.map((r) => [r.id, r]));
  return html`<section id="root-causes"><h2>Root causes (${report.rootCauses.length})</h2>
  <p class="muted">${rootCauseCount(report.rootCauses, report.requirements)}. Failures are grouped by what failed (the check, the field or header, the status), not by test: fix a cause and every rule listed with it should pass.</p>
  ${report.rootCauses.map((cause, i) => causeCard(cause, i, verdicts, evidence, loadJson))}
</section>`;
}

function causeCard(cause: RootCause, index: number, verdicts: Map<string, RuleVerdict>, evidence: (text: string) => Markup, loadJson?: unknown): Markup {
  const rules = cause.rules.map((id) => verdicts.get(id)).filter((r): r is RuleVerdict => r !== undefined);
  const worst = rules.some((r) => r.verdict === 'fail') ? 'fail' : 'warn';
  return html`<article class="cause v-border-${worst}" id="cause-${index + 1}">
  <h3>${codeSpans(cause.summary)}</h3>
  <p class="cause-rules">${breaks(rules)}: ${rules.map((r) => html`<a class="v v-${r.verdict}" href="#fail-${r.id}" title="${r.level} · ${r.verdict}">${r.id}</a> `)}<span class="muted">· ${cause.tests} failing test${cause.tests === 1 ? '' : 's'} · signature <code>${cause.signature}</code></span></p>
  <details${index === 0 ? html` open` : ''}><summary>Example: ${cause.example.test}</summary>
    ${evidence(cause.example.message)}
    ${loadChartOf(cause, loadJson)}
    ${cause.example.evidence ? html`<div class="label">Last exchange (reproduce with curl; keys are read from your environment)</div>${evidence(cause.example.evidence)}` : ''}
  </details>
</article>`;
}

/** The load run's chart of the scenario a rate-limit cause's example comes from (`load <scenario> (<engine>): …`). */
function loadChartOf(cause: RootCause, loadJson: unknown): Markup {
  const scenario = /^load (\S+) \(/.exec(cause.example.test)?.[1];
  const chart = scenario === undefined ? undefined : loadCharts(loadJson)?.charts.find((c) => c.scenario === scenario);
  return chart ? rateChart(chart, true, `${chart.scenario}: what the load run sent and the target accepted`) : html``;
}

/** "breaks 10 MUST rules, 6 more warn" */
function breaks(rules: RuleVerdict[]): string {
  const fail = rules.filter((r) => r.verdict === 'fail').length;
  const warn = rules.length - fail;
  const failing = fail > 0 ? `breaks ${fail} MUST rule${fail === 1 ? '' : 's'}` : '';
  const warning = warn > 0 ? `${fail > 0 ? ', ' : ''}${warn}${fail > 0 ? ' more' : ''} rule${warn === 1 ? '' : 's'} warn${warn === 1 ? 's' : ''}` : '';
  return failing + warning;
}
