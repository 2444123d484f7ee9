// The ledger of surviving mutants: docs/mutation-survivors.md lists every survivor that is equivalent for
// conformance — the mutated reference still obeys every rule, so no conformance test may notice it — with one line why.
// This module reads those tables and holds a Stryker report against them: which survivors are accounted for, which are
// not (each one a gap in the suite, or a row still to write), and which rows no longer match a survivor.
//
// Written by hand rather than with a markdown library: the format is four pipe-separated cells per row, and a parser
// that knew all of markdown would not know which tables are the ledger's.

/**
 * The ledger's table, under a `## reference/….ts` heading; each row names exactly one mutant:
 *
 *   | at | code | mutant | why |
 *   |---|---|---|---|
 *   | 23:7-23:30 | `/^apikey\s*$/i.test(h)` | ConditionalExpression → `false` | both branches return null unless a fault is on |
 *
 * `at`: where Stryker places the mutant, `start-end` as `line:column` (end exclusive, as in Stryker's report). `code`:
 * the original code between them (whitespace aside; a long one as `head … tail`), compared on every match, so a row
 * whose code moved is reported, never applied to whatever now sits there. `mutant`: the mutator and its replacement
 * (`Mutator → \`replacement\``; a long one as `head … tail`). `why`: why no conformance test can notice, led by the
 * row's kind: `equivalent:` (truly equivalent: no answer of the API changes) or `open:` (an answer changes, in a way no
 * rule constrains: open for conformance).
 */
export const LEDGER_HEADER = ['at', 'code', 'mutant', 'why'];

/**
 * @typedef {{ line: number, column: number }} Position
 * @typedef {'equivalent' | 'open'} RowKind
 * @typedef {{ file: string, start: Position, end: Position, code: string, mutator: string, replacement: string, kind: RowKind, why: string, docLine: number }} LedgerRow
 * @typedef {{ file: string, line: number, column: number, end: Position, mutator: string, replacement: string, id: string }} Survivor
 */

/** Splits a markdown table row into its cells; `\|` stays a pipe inside a cell (code such as `a \|\| b`). */
export function tableCells(line) {
  const trimmed = line.trim();
  if (!trimmed.startsWith('|') || !trimmed.endsWith('|')) return undefined;
  const cells = [];
  let cell = '';
  for (let i = 1; i < trimmed.length - 1; i++) {
    const ch = trimmed[i];
    if (ch === '\\' && trimmed[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (ch === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

/** A cell's text without the backticks around it (`` `x` `` → x; a double-backtick span keeps inner backticks). */
export function unquote(text) {
  const t = text.trim();
  const m = /^(`+)\s?([\s\S]*?)\s?\1$/.exec(t);
  return m ? m[2] : t;
}

const AT = /^(\d+):(\d+)-(\d+):(\d+)$/;
const MUTANT = /^([A-Z][A-Za-z]+)\s*→\s*([\s\S]+)$/;
/** Between the head and the tail of a shortened code or replacement cell. */
export const ELLIPSIS = ' … ';
const KIND = /^(equivalent|open):\s*([\s\S]*)$/;

/**
 * Reads every ledger row of the document. Throws on a malformed row, naming its line: a ledger that silently drops a
 * row would leave its survivor unaccounted for without saying why.
 * @param {string} markdown
 * @returns {LedgerRow[]}
 */
export function parseLedger(markdown) {
  const rows = [];
  let file;
  let inLedger = false;
  const lines = markdown.split('\n');
  lines.forEach((line, index) => {
    const heading = /^##\s+(\S+\.ts)\b/.exec(line);
    if (heading) {
      file = heading[1];
      inLedger = false;
      return;
    }
    if (/^#{1,2}\s/.test(line)) file = undefined;
    const cells = tableCells(line);
    if (!cells) {
      inLedger = false;
      return;
    }
    const header = cells.map((c) => c.toLowerCase()).join('|');
    if (header === LEDGER_HEADER.join('|')) {
      if (!file) throw new Error(`docs line ${index + 1}: a ledger table outside a "## reference/….ts" section`);
      inLedger = true;
      return;
    }
    if (header === 'at|code|mutants|why') throw new Error(`docs line ${index + 1}: a ledger table of the old form (mutants); each row now names one mutant: | at | code | mutant | why |`);
    if (!inLedger || cells.every((c) => /^:?-+:?$/.test(c))) return;
    const where = `docs line ${index + 1}`;
    if (cells.length !== 4) throw new Error(`${where}: a ledger row has 4 cells (at | code | mutant | why), this one ${cells.length}`);
    const [atCell, codeCell, mutantCell, why] = cells;
    const at = AT.exec(unquote(atCell));
    if (!at) throw new Error(`${where}: "${atCell}" is not a start-end position (line:column-line:column)`);
    const mutant = MUTANT.exec(mutantCell.trim());
    if (!mutant) throw new Error(`${where}: "${mutantCell}" does not name one mutant (Mutator → \`replacement\`)`);
    const code = unquote(codeCell);
    if (!code) throw new Error(`${where}: a ledger row gives the original code`);
    if (!why) throw new Error(`${where}: a ledger row says why`);
    const kind = KIND.exec(why);
    if (!kind || !kind[2]) throw new Error(`${where}: a ledger row's why starts with its kind, \`equivalent:\` (no answer changes) or \`open:\` (an answer changes, no rule constrains it), then says why`);
    rows.push({
      file,
      start: { line: Number(at[1]), column: Number(at[2]) },
      end: { line: Number(at[3]), column: Number(at[4]) },
      code,
      mutator: mutant[1],
      replacement: unquote(mutant[2]),
      kind: kind[1],
      why: kind[2],
      docLine: index + 1,
    });
  });
  return rows;
}

/** Whitespace-insensitive: Stryker prints replacements with its own spacing and line breaks. */
const squash = (s) => s.replace(/\s+/g, '');

/** Whether a cell (whole, or `head … tail` when shortened) stands for this text. */
export function cellFits(cell, text) {
  const t = squash(text);
  const cut = cell.indexOf(ELLIPSIS);
  if (cut < 0) return squash(cell) === t;
  const head = squash(cell.slice(0, cut));
  const tail = squash(cell.slice(cut + ELLIPSIS.length));
  return t.length >= head.length + tail.length && t.startsWith(head) && t.endsWith(tail);
}

/** The source text between two positions (1-based lines and columns, end exclusive, as in Stryker's report). */
export function codeBetween(source, start, end) {
  const lines = source.split('\n');
  if (start.line === end.line) return lines[start.line - 1]?.slice(start.column - 1, end.column - 1) ?? '';
  return [lines[start.line - 1]?.slice(start.column - 1) ?? '', ...lines.slice(start.line, end.line - 1), lines[end.line - 1]?.slice(0, end.column - 1) ?? ''].join('\n');
}

const samePosition = (a, b) => a.line === b.line && a.column === b.column;

/**
 * Whether a row whose code is no longer at its place names this survivor: same file and mutation, and the row's code
 * is the code at the survivor's place in `source` (the lines moved since the row was written).
 */
export function movedRowFits(row, survivor, source) {
  if (row.file !== survivor.file || row.mutator !== survivor.mutator || !cellFits(row.replacement, survivor.replacement)) return false;
  return cellFits(row.code, codeBetween(source, { line: survivor.line, column: survivor.column }, survivor.end));
}

/** A mutant of Stryker's report, where it is and what it does. @returns {Survivor} */
function located(file, m) {
  return { file, id: m.id, line: m.location.start.line, column: m.location.start.column, end: m.location.end, mutator: m.mutatorName, replacement: m.replacement ?? '' };
}

/**
 * The survivor's twin in the long-checks pass's report (mutation/stryker.long-checks.config.mjs) when that pass killed
 * it: same file and source, same place, same mutation. A report of another version of the file proves nothing here.
 */
function killedWithLongChecks(s, report, longChecks) {
  const file = longChecks?.files[s.file];
  if (!file || file.source !== report.files[s.file]?.source) return undefined;
  const twin = file.mutants.find((m) => m.location.start.line === s.line && m.location.start.column === s.column && samePosition(m.location.end, s.end) && m.mutatorName === s.mutator && squash(m.replacement ?? '') === squash(s.replacement));
  return twin && (twin.status === 'Killed' || twin.status === 'Timeout') ? twin : undefined;
}

const rowName = (r) => `docs line ${r.docLine} (${r.file} ${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column} ${r.mutator})`;

/**
 * Holds a Stryker mutation-testing report against the ledger, and against the long-checks pass's report when given:
 * a survivor of the main pass (long checks off) that pass killed is accounted for by that kill.
 *
 * A row accounts for a survivor only when it names that mutant exactly (file, start, end, mutator, replacement) and
 * the report's source still holds the row's code there. Errors of the run: a row that names a mutant the report shows
 * killed (or timed out), a row that fits more than one mutant. Reported, never applied: a row whose code is no longer
 * at its place (`moved`), a row that names no mutant of a file the run mutated (`stale`).
 * @param {{ files: Record<string, { source: string, mutants: any[] }> }} report Stryker's JSON report
 * @param {LedgerRow[]} rows
 * @param {{ files: Record<string, { source: string, mutants: any[] }> }} [longChecks] the long-checks pass's report
 */
export function accountSurvivors(report, rows, longChecks) {
  const counts = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 };
  /** Timed-out mutants count as detected (an endless loop is a kill); a loaded machine makes them too, so they are named. */
  const timedOut = [];
  for (const [file, { mutants }] of Object.entries(report.files)) {
    for (const m of mutants) {
      if (m.status === 'Killed') counts.killed++;
      else if (m.status === 'Timeout') {
        counts.timeout++;
        timedOut.push(located(file, m));
      } else if (m.status === 'NoCoverage') counts.noCoverage++;
      else if (m.status === 'Ignored') counts.ignored++;
      else if (m.status === 'Survived') counts.survived++;
      else counts.errors++;
    }
  }
  /** Row → the one survivor it accounts for (by mutant id). */
  const rowOf = new Map();
  /** Errors of the run: the ledger claims what the report contradicts. */
  const ledgerErrors = [];
  const moved = [];
  const stale = [];
  for (const row of rows) {
    const file = report.files[row.file];
    if (!file) continue;
    const named = file.mutants.filter((m) => samePosition(m.location.start, row.start) && samePosition(m.location.end, row.end) && m.mutatorName === row.mutator && cellFits(row.replacement, m.replacement ?? ''));
    if (named.length > 1) {
      ledgerErrors.push(`${rowName(row)} fits ${named.length} mutants (${named.map((m) => `→ ${oneLine(m.replacement ?? '')}`).join(', ')}): give the replacement whole`);
      continue;
    }
    const [m] = named;
    const here = codeBetween(file.source, row.start, row.end);
    if (!cellFits(row.code, here)) {
      moved.push({ ...row, here });
      continue;
    }
    if (!m) {
      stale.push(row);
      continue;
    }
    if (m.status === 'Killed' || m.status === 'Timeout') {
      ledgerErrors.push(`${rowName(row)} lists a mutant this run ${m.status === 'Killed' ? 'killed' : 'timed out on'} as equivalent: a test tells it apart, so the row is wrong`);
      continue;
    }
    if (m.status !== 'Survived') {
      stale.push(row);
      continue;
    }
    rowOf.set(m.id, row);
  }
  const accounted = [];
  const unaccounted = [];
  /** Survivors of the main pass the long-checks pass killed: detected, by a test the main pass leaves out for its wait. */
  const killedByLongChecks = [];
  for (const [file, { mutants, source }] of Object.entries(report.files)) {
    for (const m of mutants) {
      if (m.status !== 'Survived') continue;
      const s = located(file, m);
      const twin = killedWithLongChecks(s, report, longChecks);
      if (twin) {
        killedByLongChecks.push({ ...s, killedBy: twin.killedBy ?? [] });
        continue;
      }
      const row = rowOf.get(m.id);
      if (row) {
        accounted.push({ ...s, kind: row.kind, why: row.why, docLine: row.docLine });
        continue;
      }
      // A moved row whose code and mutation fit this survivor: the lines moved since it was written.
      const fits = moved.find((r) => movedRowFits(r, s, source));
      unaccounted.push(fits ? { ...s, movedRow: fits.docLine } : s);
    }
  }
  const detected = counts.killed + counts.timeout;
  const covered = detected + counts.survived;
  const detectedInEither = detected + killedByLongChecks.length;
  const trulyEquivalent = accounted.filter((s) => s.kind === 'equivalent').length;
  return {
    counts,
    accounted,
    killedByLongChecks,
    unaccounted,
    ledgerErrors,
    moved,
    stale,
    timedOut,
    /** Stryker's own, of the main pass: detected of covered. */
    scoreOfCovered: covered ? (100 * detected) / covered : NaN,
    /** Detected by either pass, with the equivalent mutants the ledger lists left out (the usual definition of a mutation score). */
    scoreWithoutEquivalents: covered - accounted.length ? (100 * detectedInEither) / (covered - accounted.length) : NaN,
    /**
     * The headline: detected of the mutants that change an answer. Only the truly equivalent leave the count; the open ones
     * and the mutants no test reaches (not covered: most change an answer nobody looks at) count as missed.
     */
    scoreOfAnswerChanging: covered + counts.noCoverage - trulyEquivalent ? (100 * detectedInEither) / (covered + counts.noCoverage - trulyEquivalent) : NaN,
  };
}

/** The summary a run prints (and `npm run mutation:survivors` reprints after the ledger changed). */
export function formatAccount(account, ledgerPath) {
  const { counts, accounted, killedByLongChecks, unaccounted, stale, moved, ledgerErrors } = account;
  const pct = (n) => (Number.isNaN(n) ? 'n/a' : `${n.toFixed(1)} %`);
  const out = [
    `Mutants: ${counts.killed} killed, ${counts.timeout} timed out, ${counts.survived} survived, ${counts.noCoverage} not covered, ${counts.ignored} ignored${counts.errors ? `, ${counts.errors} errors` : ''}`,
    `Survivors: ${accounted.length} listed as equivalent in ${ledgerPath} (${accounted.filter((s) => s.kind === 'equivalent').length} truly equivalent, ${accounted.filter((s) => s.kind === 'open').length} open for conformance), ${killedByLongChecks.length} killed by the long-checks pass, ${unaccounted.length} not accounted for`,
    `Score of covered mutants: ${pct(account.scoreOfCovered)} (Stryker's, long checks off); with the long-checks pass's kills and without the ${accounted.length} listed equivalents: ${pct(account.scoreWithoutEquivalents)}`,
    `Score of the mutants that change an answer (the headline: the truly equivalent left out, the open and the not covered counted as missed): ${pct(account.scoreOfAnswerChanging)}`,
  ];
  for (const s of killedByLongChecks) out.push(`  killed by the long-checks pass: ${s.file}:${s.line}:${s.column} ${s.mutator} → ${oneLine(s.replacement)}`);
  if (ledgerErrors.length) {
    out.push(`Ledger errors (${ledgerErrors.length}; the ledger contradicts this run — fix the rows):`);
    for (const e of ledgerErrors) out.push(`  ${e}`);
  }
  if (unaccounted.length) {
    out.push('Not accounted for (a gap to close with a test, or an equivalent to list with why):');
    for (const s of unaccounted) {
      const hint = s.movedRow ? `   (the row at docs line ${s.movedRow} fits: its location moved?)` : '';
      out.push(`  ${s.file}:${s.line}:${s.column}-${s.end.line}:${s.end.column} ${s.mutator} → ${oneLine(s.replacement)}${hint}`);
    }
  }
  if (account.timedOut.length) {
    out.push(`Timed out (counted as detected; on a loaded machine a slow run times out too — rerun these alone to be sure): ${account.timedOut.map((s) => `${s.file}:${s.line}:${s.column} ${s.mutator}`).join(', ')}`);
  }
  if (moved.length) {
    out.push(`Rows whose code is no longer at their place (not applied; move them to the mutant's new place or drop them): ${moved.map((r) => `${rowName(r)} now at it: \`${oneLine(r.here)}\``).join('; ')}`);
  }
  if (stale.length) out.push(`Rows that name no survivor of this run (killed by now, or gone): ${stale.map(rowName).join('; ')}`);
  return out.join('\n');
}

function oneLine(text) {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
}
