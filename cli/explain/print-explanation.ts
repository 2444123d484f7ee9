// `conformance explain` output: the rule, then one section per kind of evidence; an empty section says so.
import { AREAS } from '../../requirements/index.ts';
import type { RuleExplanation } from './rule-explanation.ts';
import type { SourceLine } from './source-files.ts';

const MAX_CODE_CHARS = 110;

export function printExplanation(e: RuleExplanation): string {
  const { rule } = e;
  const at = (l: SourceLine) => `${l.file}:${l.line}`;
  const code = (text: string) => (text.length > MAX_CODE_CHARS ? `${text.slice(0, MAX_CODE_CHARS - 1)}…` : text);
  const section = (title: string, lines: string[]) => [`${title} (${lines.length})`, ...(lines.length ? lines.map((l) => `  ${l}`) : ['  none'])];
  return [
    `${rule.id} — ${rule.level} — ${AREAS[rule.area]} (spec: ${rule.section})`,
    `  ${rule.text}`,
    '',
    ...section('Tests', e.activeTests.map((t) => `${at(t)}  ${testTitle(t.text, t.repeatedOver)}`)),
    ...section('Passive checks', e.passiveChecks.map((t) => `${at(t)}  ${t.text}`)),
    ...section('Load scenarios', e.loadScenarios.map((t) => `${at(t)}  ${t.text}`)),
    ...section('Schemas', e.schemas.map((s) => `${s.schema}  ${s.where}`)),
    ...section('Reference code', e.referenceCode.map((l) => `${at(l)}  ${code(l.text)}`)),
    ...section('Faults that break it', e.faults.map((f) => `${f.name}  ${f.description}`)),
  ].join('\n');
}

/** A title written as a template names what varies (‹form.label›) and the list it runs once per entry of. */
function testTitle(text: string, repeatedOver: string | undefined): string {
  const shown = text.replace(/\$\{\s*([^}]*?)\s*\}/g, '‹$1›');
  if (shown === text) return text;
  return `${shown} (${repeatedOver ? `one test per entry of ${repeatedOver}` : 'one test per case'})`;
}
