// The statements of the spec, read off its text: each field row of each table (request, response, error and limit
// tables, the status table), each body field given as a bullet, each numbered rule and each status line of an
// operation. The behaviour inventory (requirements/inventory.ts) must list every one of them, by this key.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../report/suite-info.ts';

/** The copy of the spec the suite is written against, shipped with it. */
export const SPEC_FILE = 'requirements/spec/notification-api-spec.md';
/** The copy of RULES.md the catalog is written against. */
export const RULES_FILE = 'requirements/spec/RULES.md';

export interface SpecStatement {
  /** `<heading> › <first cell>` (table row, body bullet), `<heading> rule <n>` (numbered rule), `<heading> › status <code>`. */
  key: string;
  kind: 'field' | 'status' | 'rule' | 'limit';
  /** The statement as the spec writes it (one line). */
  text: string;
  line: number;
}

export function specStatements(text = readFileSync(join(REPO_ROOT, SPEC_FILE), 'utf8')): SpecStatement[] {
  const statements: SpecStatement[] = [];
  let heading = '';
  let inTable = false;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trimEnd();
    const head = /^#{2,4} (.+)$/.exec(line);
    if (head) {
      // a heading's trailing aside ("(the same bodies apply …)") is no part of the key
      heading = head[1]!.replace(/ \(the [^)]*\)$/, '');
      inTable = false;
      return;
    }
    const add = (kind: SpecStatement['kind'], key: string) => statements.push({ key: `${heading} › ${key}`, kind, text: line.trim(), line: i + 1 });
    if (line.startsWith('|')) {
      const cells = line.split('|').slice(1, -1).map((c) => c.trim());
      // the header row opens the table, the separator row follows it
      if (!inTable) return void (inTable = true);
      if (cells.every((c) => /^-+$/.test(c))) return;
      const kind = /^\d{3}$/.test(cells[0]!) ? 'status' : heading === 'Limits' ? 'limit' : 'field';
      return add(kind, kind === 'status' ? `status ${cells[0]}` : cells[0]!);
    }
    inTable = false;
    const numbered = /^\s*(\d+)\. /.exec(line);
    if (numbered) return add('rule', `rule ${numbered[1]}`);
    // a body field given as a bullet: "  - `subscriptions`: …" (Endpoints) or "- `identifier`…"
    const field = /^\s+- `([\w.]+)`/.exec(line);
    if (field) return add('field', field[1]!);
    const status = /^- .*?(?:Success|Response): status (\d{3})/.exec(line);
    if (status) return add('status', `status ${status[1]}`);
    if (/^- (Query|Body|Path|Response body|Response|Response headers on the listed responses):/.test(line)) return add('field', line.slice(2, line.indexOf(':')));
    if (/^- A payload validation failure returns/.test(line)) return add('field', 'payload validation failure body');
  });
  return statements;
}

/** Every rule ID RULES.md numbers (its table rows `| AUTH-01 | …`). */
export function rulesOfRulesFile(text = readFileSync(join(REPO_ROOT, RULES_FILE), 'utf8')): string[] {
  return [...text.matchAll(/^\| ([A-Z]+-\d+[a-z]?) \|/gm)].map((m) => m[1]!);
}
