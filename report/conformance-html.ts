// conformance.html: one self-contained page a person reads — verdict banner, target and versions, the rule
// matrix by area (filterable by verdict), every failure with its rule, what came back and a curl reproducer,
// and the load charts when a load run left DIR/load.json. No external resources; every value is escaped.
import { gateVerdict } from './gate.ts';
import { AREAS } from '../requirements/index.ts';
import type { ConformanceReport } from './conformance-report.ts';
import { describeDeclared } from './declared-configuration.ts';
import { loadCharts, loadSection } from './load-charts.ts';
import { codeSpans, escapeMarkup, html, raw, type Markup } from './markup.ts';
import { rootCausesSection } from './root-causes-html.ts';
import { rootCauseHeadline } from './root-causes.ts';
import { certificationHeadline, transportLine, unverifiedGroups, verdictWhy } from './verdict-text.ts';
import type { RuleTest, RuleVerdict, Verdict } from './verdicts.ts';

const VERDICTS: Verdict[] = ['fail', 'warn', 'pass', 'not-verified', 'not-applicable'];
/** Failing tests shown in full per rule; the rest are one click away, so one broken rule does not bury the others. */
const SHOWN_FAILED_TESTS = 2;

export function conformanceHtml(report: ConformanceReport, loadJson?: unknown): string {
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${TITLES[report.summary.verdict]} — ${report.target.baseUrl} — Notification API ${report.spec.version}</title>
<style>${raw(CSS)}</style></head>
<body>
${banner(report)}
${jumpLinks(report, loadJson)}
<main>
${rootCausesSection(report, evidence, loadJson)}
${areaSummary(report)}
${problems(report)}
${matrix(report)}
${loadSection(loadJson)}
</main>
<footer>${report.suite.name} ${report.suite.version} · report format ${report.format} v${report.formatVersion} · generated ${report.finishedAt}</footer>
<script>${raw(SCRIPT)}</script>
</body></html>
`;
  return page.value;
}

const TITLES = { conformant: 'Conformant', incomplete: 'Incomplete', 'non-conformant': 'Non-conformant', error: 'Could not run' } as const;
const BANNERS = { conformant: ['ok', '✔ CONFORMANT'], incomplete: ['partial', '◐ INCOMPLETE'], 'non-conformant': ['bad', '✘ NON-CONFORMANT'], error: ['error', '⚠ COULD NOT RUN'] } as const;

function banner(report: ConformanceReport): Markup {
  const { tests, counts, verdict } = report.summary;
  const [tone, headline] = BANNERS[verdict];
  const excepted = report.summary.exceptedMust;
  // One bug, one line: the root causes lead, before the verdict's explanation.
  const causes = rootCauseHeadline(report.rootCauses, report.requirements);
  const target = report.target.embeddedReference
    ? html`embedded reference ${report.target.faults.length > 0 ? html`with fault${report.target.faults.length > 1 ? 's' : ''} <b>${report.target.faults.join(', ')}</b>` : ''} at ${report.target.baseUrl}`
    : html`${report.target.baseUrl}${report.target.regionalBaseUrl ? html` (regional ${report.target.regionalBaseUrl})` : ''}`;
  const gate = gateVerdict(report);
  return html`<header class="banner ${tone}">
  <div class="verdict">${headline}</div>
  ${gate ? html`<div class="gate ${gate.passed ? 'ok' : 'bad'}">${gate.passed ? '✔' : '✘'} ${gate.line}</div>` : ''}
  ${causes ? html`<div class="why">${codeSpans(causes)}</div>` : ''}
  <div class="why">${verdictWhy(report)}</div>
  ${report.summary.interrupted ? html`<div class="why"><b>Interrupted</b>: the run was stopped before its end; these are the verdicts it reached, and rules no test reached are not verified.</div>` : ''}
  <dl>
    <dt>Target</dt><dd>${target}</dd>
    <dt>Declared</dt><dd>${report.target.declared ? describeDeclared(report.target.declared) : 'not recorded (report of an older version)'}</dd>
    <dt>Specification</dt><dd>Notification Service HTTP API ${report.spec.version}</dd>
    <dt>Suite</dt><dd>${report.suite.name} ${report.suite.version}${report.suite.commit ? ` · commit ${report.suite.commit.slice(0, 12)}${report.suite.dirty ? ' (uncommitted changes)' : ''}` : ''}</dd>
    <dt>Run</dt><dd>${report.startedAt} · ${(report.durationMs / 1000).toFixed(1)} s</dd>
    <dt>Tests</dt><dd>${tests.total} run: ${tests.passed} passed, ${tests.failed} failed, ${tests.notVerified} not verified, ${tests.notApplicable} not applicable</dd>
    <dt>MUST rules</dt><dd>${countLine(counts.MUST)}</dd>
    <dt>SHOULD rules</dt><dd>${countLine(counts.SHOULD)}</dd>
    ${verdict === 'error' ? '' : unverifiedGroups(report.summary).map((g) => html`<dt>Not verified</dt><dd><b>${g.ids.join(', ')}</b>: ${g.reason}</dd>`)}
    ${excepted.length > 0 && verdict !== 'error' ? html`<dt>Excepted</dt><dd><b>${excepted.join(', ')}</b>: MUST rules observable only when they happen, not observed in this run</dd>` : ''}
    ${report.summary.transport ? html`<dt>Network</dt><dd>${transportLine(report.summary)}</dd>` : ''}
    <dt>Certification</dt><dd>${certificationHeadline(report)}${report.certification?.reasons.length ? html`<ul class="reasons">${report.certification.reasons.map((r) => html`<li>${r.text}</li>`)}</ul>` : ''}${report.certification?.declared?.length ? html`<ul class="reasons">${report.certification.declared.map((d) => html`<li>${d}</li>`)}</ul>` : ''}</dd>
  </dl>
</header>`;
}

function jumpLinks(report: ConformanceReport, loadJson: unknown): Markup {
  const broken = report.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').length;
  return html`<nav class="jump">${report.rootCauses.length > 0 ? html`<a href="#root-causes">Root causes (${report.rootCauses.length})</a>` : ''}${report.errors.length > 0 ? html`<a href="#errors">Run errors (${report.errors.length})</a>` : ''}${broken > 0 ? html`<a href="#failures">Failures and warnings (${broken})</a>` : ''}<a href="#matrix">Rule matrix (${report.requirements.length})</a>${report.leaks.length > 0 ? html`<a href="#leaks">Leftovers (${report.leaks.length})</a>` : ''}${loadCharts(loadJson) ? html`<a href="#load">Load run</a>` : ''}</nav>`;
}

function countLine(c: Record<Verdict, number>): Markup {
  return html`${VERDICTS.filter((v) => c[v] > 0).map((v, i) => html`${i > 0 ? ' · ' : ''}<span class="v v-${v}">${c[v]} ${v}</span>`)}`;
}

function areaSummary(report: ConformanceReport): Markup {
  const areas = Object.keys(AREAS) as (keyof typeof AREAS)[];
  return html`<section><h2>Verdicts by area</h2><table class="summary"><thead><tr><th>area</th>${VERDICTS.map((v) => html`<th>${v}</th>`)}</tr></thead><tbody>
  ${areas.map((area) => {
    const rules = report.requirements.filter((r) => r.area === area);
    if (rules.length === 0) return '';
    return html`<tr><td><a href="#area-${area}">${area}</a> <span class="muted">${plainArea(area)}</span></td>${VERDICTS.map((v) => {
      const n = rules.filter((r) => r.verdict === v).length;
      return html`<td class="num">${n > 0 ? html`<span class="v v-${v}">${n}</span>` : html`<span class="muted">·</span>`}</td>`;
    })}</tr>`;
  })}</tbody></table></section>`;
}

function problems(report: ConformanceReport): Markup {
  const broken = report.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'warn');
  const parts: Markup[] = [];
  if (report.errors.length > 0) {
    parts.push(html`<section id="errors"><h2>Run errors</h2><p>Problems outside any test; each makes the run non-conformant.</p>${report.errors.map((e) => evidence(e))}</section>`);
  }
  if (broken.length > 0) {
    parts.push(html`<section id="failures"><h2>Failures and warnings (${broken.length})</h2>${broken.map(failureCard)}</section>`);
  }
  if (report.expectations) {
    const e = report.expectations;
    parts.push(html`<section id="expectations"><h2>Against the baseline ${e.file}</h2><p>${e.matched} entr${e.matched === 1 ? 'y' : 'ies'} matched; ${e.unexpected.length} unexpected result${e.unexpected.length === 1 ? '' : 's'}.</p>
    ${e.unexpected.length > 0 ? html`<table><thead><tr><th>rule or test</th><th>baseline</th><th>this run</th></tr></thead><tbody>${e.unexpected.map((u) => html`<tr><td>${u.key}</td><td>${u.expected.join(' or ')}</td><td><b>${u.actual}</b>${u.kind === 'unexpected-pass' ? ' (unexpected pass: update the baseline)' : ''}</td></tr>`)}</tbody></table>` : ''}
    ${e.unused.length > 0 ? html`<p class="muted">Entries that named nothing in this run: ${e.unused.join(', ')}</p>` : ''}</section>`);
  }
  if (report.repeat && report.repeat.unstable.length > 0) {
    parts.push(html`<section id="unstable"><h2>Unstable across ${report.repeat.runs} runs</h2><ul>${report.repeat.unstable.map((u) => html`<li><b>${u.id}</b>: ${u.verdicts.join(' → ')}</li>`)}</ul></section>`);
  }
  if (report.leaks.length > 0) {
    parts.push(html`<section id="leaks"><h2>Resources left on the target</h2><ul>${report.leaks.map((l) => html`<li><code>${l}</code></li>`)}</ul></section>`);
  }
  return html`${parts}`;
}

function failureCard(rule: RuleVerdict): Markup {
  const failed = rule.tests.filter((t) => t.status === 'failed');
  return html`<article class="failure v-border-${rule.verdict}" id="fail-${rule.id}">
  <h3><span class="v v-${rule.verdict}">${rule.verdict}</span> ${rule.id} <span class="level">${rule.level}</span> <span class="muted">spec § ${rule.section}</span></h3>
  <blockquote>${codeSpans(rule.text)}</blockquote>
  ${rule.reason ? html`<p class="muted">${rule.reason}</p>` : ''}
  ${failed.slice(0, SHOWN_FAILED_TESTS).map((t) => failedTest(t))}
  ${failed.length > SHOWN_FAILED_TESTS ? html`<details class="more"><summary>${failed.length - SHOWN_FAILED_TESTS} more failing test${failed.length - SHOWN_FAILED_TESTS === 1 ? '' : 's'} of ${rule.id}</summary>${failed.slice(SHOWN_FAILED_TESTS).map((t) => failedTest(t))}</details>` : ''}
</article>`;
}

function failedTest(test: RuleTest): Markup {
  const message = test.message ?? 'failed';
  // The wrapper appends the rule and the last exchange to the message; with evidence both are shown apart.
  const assertion = test.evidence && test.evidence.length > 0 ? message.split('\n\nRule: ')[0]! : message;
  return html`<div class="test">
  <h4>${test.name}${test.level ? html` <span class="level">SHOULD-level case</span>` : ''}</h4>
  <div class="label">What was checked and what came back</div>
  ${evidence(assertion)}
  ${test.evidence && test.evidence.length > 0
    ? html`<details open><summary>Last ${test.evidence.length === 1 ? 'exchange' : `${test.evidence.length} exchanges`} (reproduce with curl; keys are read from your environment)</summary>${test.evidence.map((e) => evidence(e))}</details>`
    : ''}
</div>`;
}

/** Text with `reproduce: curl …` lines pulled out into their own copyable blocks. */
function evidence(text: string): Markup {
  const blocks: Markup[] = [];
  let buffer: string[] = [];
  const flush = () => {
    if (buffer.join('').trim()) blocks.push(html`<pre class="out">${buffer.join('\n')}</pre>`);
    buffer = [];
  };
  for (const line of text.split('\n')) {
    const m = /^\s*reproduce: (curl .*)$/.exec(line);
    if (m) {
      flush();
      blocks.push(html`<div class="curl"><span class="label">curl reproducer</span><pre>${m[1]}</pre></div>`);
    } else buffer.push(line);
  }
  flush();
  return html`<div class="evidence">${blocks}</div>`;
}

function matrix(report: ConformanceReport): Markup {
  const areas = Object.keys(AREAS) as (keyof typeof AREAS)[];
  const count = (v: Verdict) => report.requirements.filter((r) => r.verdict === v).length;
  return html`<section id="matrix"><h2>Rule matrix</h2>
  <div class="filters" role="toolbar" aria-label="Filter rules by verdict">
    <button type="button" data-filter="all" class="active">all <b>${report.requirements.length}</b></button>
    ${VERDICTS.map((v) => html`<button type="button" data-filter="${v}" class="f-${v}" ${count(v) === 0 ? raw('disabled') : ''}>${v} <b>${count(v)}</b></button>`)}
  </div>
  ${areas.map((area) => {
    const rules = report.requirements.filter((r) => r.area === area);
    if (rules.length === 0) return '';
    return html`<div class="area" id="area-${area}"><h3>${area} <span class="muted">— ${plainArea(area)}</span></h3>
    <table class="rules"><colgroup><col class="c-id"><col class="c-level"><col class="c-verdict"><col><col class="c-tests"></colgroup><thead><tr><th>rule</th><th>level</th><th>verdict</th><th>requirement</th><th>tests</th></tr></thead><tbody>
    ${rules.map(ruleRow)}</tbody></table></div>`;
  })}
  <p class="none" hidden>No rule has this verdict.</p>
</section>`;
}

function ruleRow(rule: RuleVerdict): Markup {
  const broken = rule.verdict === 'fail' || rule.verdict === 'warn';
  return html`<tr class="rule" data-verdict="${rule.verdict}">
  <td class="id">${broken ? html`<a href="#fail-${rule.id}">${rule.id}</a>` : rule.id}</td>
  <td>${rule.level}</td>
  <td><span class="v v-${rule.verdict}">${rule.verdict}</span></td>
  <td>${codeSpans(rule.text)}${rule.reason ? html`<div class="muted reason">${rule.reason}</div>` : ''}</td>
  <td>${rule.tests.length === 0 ? html`<span class="muted">none</span>` : html`<details><summary>${rule.tests.length} test${rule.tests.length === 1 ? '' : 's'}</summary><ul class="tests">${rule.tests.map((t) => html`<li><span class="s s-${t.status}">${t.status}</span> ${t.name}${t.level ? ' (SHOULD-level)' : ''} <span class="muted">${t.durationMs} ms</span>${t.transport ? html`<div class="muted">ran ${t.transport.tries} times: ${t.transport.faults.join('; ')}</div>` : ''}${t.status !== 'passed' && t.status !== 'failed' && t.message ? html`<div class="muted">${t.message}</div>` : ''}</li>`)}</ul></details>`}</td>
</tr>`;
}


/** Area headings carry Markdown code spans in RULES.md; the page shows them as plain text. */
function plainArea(area: keyof typeof AREAS): string {
  return AREAS[area].replaceAll('`', '');
}

const CSS = `
:root{--pass:#15803d;--fail:#b91c1c;--warn:#b45309;--nv:#4b5563;--na:#6b7280;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;background:#f9fafb}
body{margin:0}main{max-width:1200px;margin:0 auto;padding:0 24px 48px}
.banner{padding:20px 24px;color:#fff}.banner.ok{background:var(--pass)}.banner.bad{background:var(--fail)}.banner.partial{background:var(--nv)}.banner.error{background:#5b3a00}.banner ul.reasons{margin:2px 0 0;padding-left:18px}
.banner .verdict{font-size:30px;font-weight:700;letter-spacing:.02em}.banner .gate{display:inline-block;font-size:18px;font-weight:700;margin:6px 0 2px;padding:3px 10px;border-radius:4px}.banner .gate.ok{background:var(--pass)}.banner .gate.bad{background:var(--fail)}.banner .why{font-size:16px;margin:4px 0 12px;opacity:.95}
.banner dl{display:grid;grid-template-columns:max-content 1fr;gap:3px 16px;margin:0;font-size:14px}.banner dt{opacity:.8}.banner dd{margin:0;word-break:break-all}
.banner .v{background:rgba(255,255,255,.92)}.banner code{background:rgba(255,255,255,.22);color:#fff}
h2{margin:28px 0 10px;font-size:20px}h3{margin:18px 0 8px;font-size:16px}h4{margin:12px 0 6px;font-size:14px}
table{border-collapse:collapse;width:100%;background:#fff;font-size:13px}th,td{border:1px solid #e5e7eb;padding:5px 8px;text-align:left;vertical-align:top}
th{background:#f3f4f6;font-weight:600}td.num{text-align:center}table.summary td:first-child{white-space:nowrap}
table.latency{width:auto;margin:8px 0}table.latency caption{text-align:left;color:#374151;padding:4px 0}table.rules{table-layout:fixed}col.c-id{width:86px}col.c-level{width:64px}col.c-verdict{width:118px}col.c-tests{width:260px}
code{font-family:ui-monospace,monospace;font-size:.92em;background:#eef2f7;border-radius:3px;padding:0 3px}
nav.jump{max-width:1200px;margin:0 auto;padding:8px 24px;font-size:14px}nav.jump a{margin-right:16px}
td.id{white-space:nowrap;font-family:ui-monospace,monospace;font-weight:600}
.v{display:inline-block;padding:1px 7px;border-radius:10px;font-size:12px;font-weight:600;white-space:nowrap;border:1px solid currentColor}
.v-pass{color:var(--pass)}.v-fail{color:var(--fail)}.v-warn{color:var(--warn)}.v-not-verified{color:var(--nv)}.v-not-applicable{color:var(--na);border-style:dashed}
.s{font-size:11px;font-weight:600}.s-passed{color:var(--pass)}.s-failed{color:var(--fail)}.s-not-verified{color:var(--nv)}.s-not-applicable{color:var(--na)}
.muted{color:#6b7280}.level{font-size:12px;font-weight:600;color:#374151;background:#e5e7eb;border-radius:4px;padding:1px 5px}
.reason{font-size:12px;margin-top:2px}
.failure{background:#fff;border:1px solid #e5e7eb;border-left:5px solid var(--fail);border-radius:4px;padding:4px 16px 12px;margin:12px 0}
.v-border-warn{border-left-color:var(--warn)}
.cause{background:#fff;border:1px solid #e5e7eb;border-left:5px solid var(--fail);border-radius:4px;padding:4px 16px 12px;margin:12px 0}
.cause h3{font-size:18px}.cause-rules{margin:4px 0 8px;line-height:2}.cause-rules a.v{text-decoration:none;margin-right:2px}
blockquote{margin:6px 0;padding:6px 12px;background:#f3f4f6;border-radius:4px;font-size:14px}
.label{font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:#6b7280;margin:6px 0 2px}
pre{margin:4px 0;padding:8px 10px;background:#111827;color:#f9fafb;border-radius:4px;font-size:12px;white-space:pre-wrap;word-break:break-word;max-height:360px;overflow:auto}
.curl pre{background:#1e3a8a}
details summary{cursor:pointer;font-size:13px;color:#1d4ed8}details.more{margin-top:10px}details.more>summary{font-weight:600}
ul.tests{margin:4px 0;padding-left:16px;font-size:12px}ul.tests li{margin:2px 0}
.filters{display:flex;flex-wrap:wrap;gap:6px;margin:6px 0 10px}
.filters button{font:inherit;font-size:13px;padding:4px 10px;border:1px solid #d1d5db;border-radius:14px;background:#fff;cursor:pointer}
.filters button.active{background:#111827;color:#fff;border-color:#111827}.filters button:disabled{opacity:.4;cursor:default}
.charts{display:flex;flex-wrap:wrap;gap:16px;align-items:center}.charts>p{flex:1 1 280px}figure{margin:0;background:#fff;border:1px solid #e5e7eb;border-radius:4px;padding:8px}
figcaption{font-size:13px;font-weight:600;margin-bottom:4px}svg.chart{max-width:100%;height:auto}
.legend{font-size:12px;display:flex;gap:12px}.legend i{display:inline-block;width:12px;height:3px;margin-right:4px;vertical-align:middle}
footer{text-align:center;font-size:12px;color:#6b7280;padding:16px}
[hidden]{display:none!important}
`;

// Filtering only hides rows; without JavaScript every rule stays visible.
const SCRIPT = `
(function(){
  var buttons=document.querySelectorAll('[data-filter]');
  function apply(v){
    buttons.forEach(function(b){b.classList.toggle('active',b.dataset.filter===v)});
    document.querySelectorAll('tr.rule').forEach(function(r){r.hidden=v!=='all'&&r.dataset.verdict!==v});
    var any=false;
    document.querySelectorAll('.area').forEach(function(a){var shown=!!a.querySelector('tr.rule:not([hidden])');a.hidden=!shown;any=any||shown});
    document.querySelector('#matrix .none').hidden=any;
  }
  buttons.forEach(function(b){b.addEventListener('click',function(){apply(b.dataset.filter);history.replaceState(null,'','#verdict='+b.dataset.filter)})});
  var m=/verdict=([a-z-]+)/.exec(location.hash);if(m)apply(m[1]);
})();
`;
