// The markdown a GitHub Actions job shows on its summary page ($GITHUB_STEP_SUMMARY): verdict, gate, rules per area.
import { AREAS } from '../requirements/index.ts';
import type { ConformanceReport } from './conformance-report.ts';
import { gateVerdict } from './gate.ts';
import { escapeMarkup } from './markup.ts';
import { certificationHeadline, idList, unverifiedGroups, verdictWhy } from './verdict-text.ts';
import type { Verdict } from './verdicts.ts';

const COLUMNS: Verdict[] = ['pass', 'fail', 'warn', 'not-verified', 'not-applicable'];
const ICONS = { conformant: '✅', incomplete: '◐', 'non-conformant': '❌', error: '⚠️' } as const;

/** Markdown with every value escaped (GitHub renders HTML inside it; a rule text or error may hold `<`, `|`). */
export function stepSummaryMarkdown(report: ConformanceReport): string {
  const md = (value: unknown) => escapeMarkup(value).replaceAll('|', '&#124;').replace(/\r?\n/g, ' ');
  const { verdict } = report.summary;
  const gate = gateVerdict(report);
  const lines = [
    `## ${ICONS[verdict]} Conformance: ${verdict.toUpperCase()}`,
    '',
    ...(gate ? [`**${gate.passed ? '✅' : '❌'} ${md(gate.line)}**`, ''] : []),
    md(verdictWhy(report)),
    '',
    `Target: \`${md(report.target.baseUrl)}\`${report.target.embeddedReference ? ' (embedded reference)' : ''} · suite ${md(report.suite.version)} · spec ${md(report.spec.version)}`,
    '',
  ];
  if (verdict !== 'error') {
    lines.push(`| area | ${COLUMNS.join(' | ')} |`, `|---|${COLUMNS.map(() => '---:').join('|')}|`);
    for (const area of Object.keys(AREAS)) {
      const rules = report.requirements.filter((r) => r.area === area);
      lines.push(`| ${area} | ${COLUMNS.map((v) => rules.filter((r) => r.verdict === v).length || '·').join(' | ')} |`);
    }
    lines.push('');
    for (const r of report.requirements.filter((x) => x.verdict === 'fail' || x.verdict === 'warn')) lines.push(`- **${r.verdict.toUpperCase()} ${r.id}** (${r.level}): ${md(r.text)}`);
    for (const g of unverifiedGroups(report.summary)) lines.push(`- not verified (MUST) ${md(idList(g.ids))}: ${md(g.reason)}`);
    for (const u of report.expectations?.unexpected ?? []) lines.push(`- **unexpected**: ${md(u.key)} is ${md(u.actual)}, the baseline expects ${md(u.expected.join(' or '))}`);
    lines.push('', md(certificationHeadline(report)));
  } else lines.push(`Could not run: ${md(report.summary.error ?? 'reason not recorded')}`);
  return `${lines.join('\n')}\n\n`;
}
