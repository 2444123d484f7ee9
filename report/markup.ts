// Escaping for the hand-written XML and HTML artifacts and for the terminal: every value from a test, a target or a
// bundle passes through here before it is written or printed.

// XML 1.0 forbids most C0 controls even as character references, so they are dropped, not escaped.
// eslint-disable-next-line no-control-regex
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or attribute value for XML and HTML alike. */
export function escapeMarkup(value: unknown): string {
  return String(value ?? '')
    .replace(INVALID_XML_CHARS, '')
    .replace(/[&<>"']/g, (c) => ENTITIES[c]!)
    .replace(SHOWN_AS_REFERENCE, (c) => `&#x${c.charCodeAt(0).toString(16)};`)
    .replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// why: legal in XML, but a terminal that shows junit.xml in a CI log acts on C1 controls (CSI)
// eslint-disable-next-line no-control-regex
const SHOWN_AS_REFERENCE = /[\u007F-\u009F]/g;

/**
 * Characters that reorder or hide text: bidi controls (a browser applies them even as character references: `&#x202e;`
 * reverses what follows), zero-width and invisible ones, line and paragraph separators. Shown as a visible `\u202e`.
 */
export const INVISIBLE = /[\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/g;

/** Tagged template that escapes every interpolation unless it is already markup (`raw(...)`). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Markup(out);
}

export class Markup {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Text whose Markdown code spans (`x`) become <code> after escaping, so no markup gets through. */
export function codeSpans(text: string): Markup {
  return new Markup(escapeMarkup(text).replace(/`([^`]+)`/g, '<code>$1</code>'));
}

/** Trusted markup built elsewhere (e.g. generated SVG); never pass target data here. */
export function raw(markup: string): Markup {
  return new Markup(markup);
}

function render(value: unknown): string {
  if (value instanceof Markup) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeMarkup(value);
}

// C0 and C1 controls (ESC, CSI, BEL…), DEL, and the INVISIBLE characters (bidi controls, zero-width ones).
// eslint-disable-next-line no-control-regex
const TERMINAL_UNSAFE = /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/g;

/** Longest line printed from untrusted text; the rest is cut, saying how much. */
export const TERMINAL_LINE_MAX = 2000;

/**
 * One line for the terminal: every control character shown as `\x1b`/`\u202e` instead of acted on (a bundle's
 * `ESC[2J` cannot clear the screen, a newline cannot start a forged line), at most TERMINAL_LINE_MAX characters.
 */
export function escapeTerminal(value: unknown, max = TERMINAL_LINE_MAX): string {
  const text = String(value ?? '');
  const cut = text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
  return cut.replace(TERMINAL_UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Text of several lines for the terminal (a run's log, a container's last words): each line as escapeTerminal. */
export function escapeTerminalLines(text: string): string {
  return text.split('\n').map((line) => line.split('\t').map((part) => escapeTerminal(part)).join('\t')).join('\n');
}
