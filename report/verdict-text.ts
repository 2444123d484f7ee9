// The words every artifact uses for the summary verdict and the certification grade, so the terminal, the page
// and junit.xml say the same thing.
import type { ConformanceReport } from './conformance-report.ts';

type Summary = ConformanceReport['summary'];

/** What the verdict rests on, in one line. */
export function verdictWhy(report: Pick<ConformanceReport, 'summary' | 'errors'>): string {
  const { summary } = report;
  if (summary.verdict === 'error') return `the run could not run, no rule was judged: ${summary.error ?? 'reason not recorded'}`;
  if (summary.verdict === 'non-conformant') {
    const failed = summary.counts.MUST.fail;
    return [failed > 0 ? `${plural(failed, 'MUST rule')} failed` : '', report.errors.length > 0 ? plural(report.errors.length, 'run error') : ''].filter(Boolean).join(' · ');
  }
  if (summary.verdict === 'incomplete') {
    const pendingLoad = summary.unverifiedMust.every((r) => r.verifiedByLoad);
    return `no MUST rule failed, but ${plural(summary.unverifiedMust.length, 'MUST rule')} ${summary.unverifiedMust.length === 1 ? 'was' : 'were'} not verified${pendingLoad ? ' until `conformance load` merges its verdicts' : ''}`;
  }
  return 'every MUST rule passed or is not applicable by the target\'s declaration';
}

/** The transport faults the run met, in one line, or undefined when it met none. */
export function transportLine(summary: Summary): string | undefined {
  const t = summary.transport;
  if (!t) return undefined;
  const faults = (n: number) => `${n} transport fault${n === 1 ? '' : 's'}`;
  const met = t.testsRetried > 0 ? `${faults(t.faultsMet)} (reset, refused, no answer) met by ${plural(t.testsRetried, 'test')}, each run again from the start; a fault that repeated on the same request is a finding, the rest are not verdicts` : '';
  const stray = t.stray?.length ? `${faults(t.stray.length)} on requests no test awaited in time (e.g. ${t.stray[0]}): the network's, not verdicts` : '';
  return [met, stray].filter(Boolean).join('; ');
}

/** The unverified MUST rules grouped by why, the largest group first. */
export function unverifiedGroups(summary: Summary): { reason: string; ids: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const r of summary.unverifiedMust) {
    const reason = firstLine(r.reason);
    groups.set(reason, [...(groups.get(reason) ?? []), r.id]);
  }
  return [...groups].map(([reason, ids]) => ({ reason, ids })).sort((a, b) => b.ids.length - a.ids.length);
}

export function exceptedLine(summary: Summary): string | undefined {
  return summary.exceptedMust.length > 0 ? `Excepted (MUST rules observable only when they happen, not observed): ${summary.exceptedMust.join(', ')}` : undefined;
}

export function certificationHeadline(report: Pick<ConformanceReport, 'certification'>): string {
  const c = report.certification;
  if (!c) return 'Certification-grade: not assessed';
  return c.certificationGrade ? 'Certification-grade: yes' : `Certification-grade: no (${plural(c.reasons.length, 'reason')})`;
}

export function idList(ids: string[], max = 12): string {
  return ids.length <= max ? ids.join(', ') : `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]!;
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}
