// The ledger of surviving mutants (issue 19): docs/mutation-survivors.md lists every survivor that is equivalent for
// conformance — the mutated reference still obeys every rule, so no conformance test may notice it — with one line why.
// This module reads those tables and holds a Stryker report against them: which survivors are accounted for, which are
// not (each one a gap in the suite, or a row still to write), and which rows no longer match a survivor.
//
// Written by hand rather than with a markdown library: the format is four pipe-separated cells per row, and a parser
// that knew all of markdown would not know which tables are the ledger's.

/**
 * The ledger's table, under a `## reference/….ts` heading:
 *
 *   | at | code | mutants | why |
 *   |---|---|---|---|
 *   | 23:7 | `/^apikey\s*$/i.test(h)` | ConditionalExpression; Regex | both branches return null unless a fault is on |
 *
 * `at`: one or more `line:column` (comma-separated) where Stryker places the mutant. `code`: the original code there
 * (its start; used to find a row again after the lines moved). `mutants`: `*`, or `;`-separated mutator names, each
 * optionally `→ \`replacement\`` for one mutant only. `why`: why no conformance test can notice.
 */
export const LEDGER_HEADER = ['at', 'code', 'mutants', 'why'];

/**
 * @typedef {{ mutator: string, replacement?: string }} MutantPattern
 * @typedef {{ file: string, at: {line: number, column: number}[], code: string, mutants: MutantPattern[] | '*', why: string, docLine: number }} LedgerRow
 * @typedef {{ file: string, line: number, column: number, mutator: string, replacement: string, id: string }} Survivor
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

const AT = /^(\d+):(\d+)$/;
const MUTATOR = /^[A-Z][A-Za-z]+$/;

/** Parses one `mutants` cell: `*`, or `Mutator` / `Mutator → \`replacement\`` items separated by `;`. */
function parseMutants(cell) {
  if (cell.trim() === '*') return '*';
  return cell.split(/;(?=\s*[A-Z][A-Za-z]+\s*(?:$|→|;))/).map((item) => {
    const [name, ...rest] = item.split('→');
    const mutator = name.trim();
    if (!MUTATOR.test(mutator)) throw new Error(`"${mutator}" is not a Stryker mutator name`);
    return rest.length ? { mutator, replacement: unquote(rest.join('→')) } : { mutator };
  });
}

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
    if (cells.map((c) => c.toLowerCase()).join('|') === LEDGER_HEADER.join('|')) {
      if (!file) throw new Error(`docs line ${index + 1}: a ledger table outside a "## reference/….ts" section`);
      inLedger = true;
      return;
    }
    if (!inLedger || cells.every((c) => /^:?-+:?$/.test(c))) return;
    const where = `docs line ${index + 1}`;
    if (cells.length !== 4) throw new Error(`${where}: a ledger row has 4 cells (at | code | mutants | why), this one ${cells.length}`);
    const [atCell, codeCell, mutantsCell, why] = cells;
    const at = atCell.split(',').map((s) => {
      const m = AT.exec(unquote(s));
      if (!m) throw new Error(`${where}: "${s.trim()}" is not a line:column`);
      return { line: Number(m[1]), column: Number(m[2]) };
    });
    if (!why) throw new Error(`${where}: a ledger row says why`);
    let mutants;
    try {
      mutants = parseMutants(mutantsCell);
    } catch (error) {
      throw new Error(`${where}: ${error.message}`);
    }
    rows.push({ file, at, code: unquote(codeCell), mutants, why, docLine: index + 1 });
  });
  return rows;
}

/** Whitespace-insensitive: Stryker prints replacements with its own spacing and line breaks. */
const squash = (s) => s.replace(/\s+/g, '');

/** @param {MutantPattern[] | '*'} patterns @param {Survivor} s */
function patternsMatch(patterns, s) {
  if (patterns === '*') return true;
  return patterns.some((p) => p.mutator === s.mutator && (p.replacement === undefined || squash(p.replacement) === squash(s.replacement)));
}

/** The code at a location of a source text, from the column on (1-based line and column, as Stryker's report). */
function codeAt(source, line, column) {
  return source.split('\n')[line - 1]?.slice(column - 1) ?? '';
}

/** A mutant of Stryker's report, where it is and what it does. @returns {Survivor} */
function located(file, m) {
  return { file, id: m.id, line: m.location.start.line, column: m.location.start.column, mutator: m.mutatorName, replacement: m.replacement ?? '' };
}

/**
 * The survivor's twin in the long-checks pass's report (mutation/stryker.long-checks.config.mjs) when that pass killed
 * it: same file and source, same place, same mutation. A report of another version of the file proves nothing here.
 */
function killedWithLongChecks(s, report, longChecks) {
  const file = longChecks?.files[s.file];
  if (!file || file.source !== report.files[s.file]?.source) return undefined;
  const twin = file.mutants.find((m) => m.location.start.line === s.line && m.location.start.column === s.column && m.mutatorName === s.mutator && squash(m.replacement ?? '') === squash(s.replacement));
  return twin && (twin.status === 'Killed' || twin.status === 'Timeout') ? twin : undefined;
}

/**
 * Holds a Stryker mutation-testing report against the ledger, and against the long-checks pass's report when given:
 * a survivor of the main pass (long checks off) that pass killed is accounted for by that kill.
 * @param {{ files: Record<string, { source: string, mutants: any[] }> }} report Stryker's JSON report
 * @param {LedgerRow[]} rows
 * @param {{ files: Record<string, { source: string, mutants: any[] }> }} [longChecks] the long-checks pass's report
 */
export function accountSurvivors(report, rows, longChecks) {
  const counts = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 };
  /** @type {Survivor[]} */
  const survivors = [];
  /** Timed-out mutants count as detected (an endless loop is a kill); a loaded machine makes them too, so they are named. */
  const timedOut = [];
  for (const [file, { mutants }] of Object.entries(report.files)) {
    for (const m of mutants) {
      if (m.status === 'Killed') counts.killed++;
      else if (m.status === 'Timeout') {
        counts.timeout++;
        timedOut.push(located(file, m));
      }
      else if (m.status === 'NoCoverage') counts.noCoverage++;
      else if (m.status === 'Ignored') counts.ignored++;
      else if (m.status === 'Survived') {
        counts.survived++;
        survivors.push(located(file, m));
      } else counts.errors++;
    }
  }
  const used = new Set();
  const accounted = [];
  const unaccounted = [];
  /** Survivors of the main pass the long-checks pass killed: detected, by a test the main pass leaves out for its wait. */
  const killedByLongChecks = [];
  for (const s of survivors) {
    const twin = killedWithLongChecks(s, report, longChecks);
    if (twin) {
      killedByLongChecks.push({ ...s, killedBy: twin.killedBy ?? [] });
      continue;
    }
    const row = rows.find((r) => r.file === s.file && r.at.some((a) => a.line === s.line && a.column === s.column) && patternsMatch(r.mutants, s));
    if (row) {
      used.add(row);
      accounted.push({ ...s, why: row.why });
    } else {
      const source = report.files[s.file]?.source ?? '';
      const here = squash(codeAt(source, s.line, s.column));
      // A row whose code and mutators fit, but whose location does not: the lines moved since it was written.
      const moved = rows.find((r) => r.file === s.file && r.code && here.startsWith(squash(r.code.replace(/…$/, ''))) && patternsMatch(r.mutants, s));
      unaccounted.push(moved ? { ...s, movedRow: moved.docLine } : s);
    }
  }
  const mutatedFiles = new Set(Object.keys(report.files));
  const stale = rows.filter((r) => mutatedFiles.has(r.file) && !used.has(r));
  const detected = counts.killed + counts.timeout;
  const covered = detected + counts.survived;
  const detectedInEither = detected + killedByLongChecks.length;
  return {
    counts,
    accounted,
    killedByLongChecks,
    unaccounted,
    stale,
    timedOut,
    /** Stryker's own, of the main pass: detected of covered. */
    scoreOfCovered: covered ? (100 * detected) / covered : NaN,
    /** Detected by either pass, with the equivalent mutants the ledger lists left out (the usual definition of a mutation score). */
    scoreWithoutEquivalents: covered - accounted.length ? (100 * detectedInEither) / (covered - accounted.length) : NaN,
  };
}

/** The summary a run prints (and `npm run mutation:survivors` reprints after the ledger changed). */
export function formatAccount(account, ledgerPath) {
  const { counts, accounted, killedByLongChecks, unaccounted, stale } = account;
  const pct = (n) => (Number.isNaN(n) ? 'n/a' : `${n.toFixed(1)} %`);
  const out = [
    `Mutants: ${counts.killed} killed, ${counts.timeout} timed out, ${counts.survived} survived, ${counts.noCoverage} not covered, ${counts.ignored} ignored${counts.errors ? `, ${counts.errors} errors` : ''}`,
    `Survivors: ${accounted.length} listed as equivalent in ${ledgerPath}, ${killedByLongChecks.length} killed by the long-checks pass, ${unaccounted.length} not accounted for`,
    `Score of covered mutants: ${pct(account.scoreOfCovered)} (Stryker's, long checks off); with the long-checks pass's kills and without the ${accounted.length} listed equivalents: ${pct(account.scoreWithoutEquivalents)}`,
  ];
  for (const s of killedByLongChecks) out.push(`  killed by the long-checks pass: ${s.file}:${s.line}:${s.column} ${s.mutator} → ${oneLine(s.replacement)}`);
  if (unaccounted.length) {
    out.push('Not accounted for (a gap to close with a test, or an equivalent to list with why):');
    for (const s of unaccounted) {
      const moved = s.movedRow ? `   (the row at docs line ${s.movedRow} fits: its location moved?)` : '';
      out.push(`  ${s.file}:${s.line}:${s.column} ${s.mutator} → ${oneLine(s.replacement)}${moved}`);
    }
  }
  if (account.timedOut.length) {
    out.push(`Timed out (counted as detected; on a loaded machine a slow run times out too — rerun these alone to be sure): ${account.timedOut.map((s) => `${s.file}:${s.line}:${s.column} ${s.mutator}`).join(', ')}`);
  }
  if (stale.length) {
    out.push(`Rows that match no survivor (killed now, or the code moved): ${stale.map((r) => `docs line ${r.docLine} (${r.file} ${r.at.map((a) => `${a.line}:${a.column}`).join(',')})`).join('; ')}`);
  }
  return out.join('\n');
}

function oneLine(text) {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
}
