// Escaping for the hand-written XML and HTML artifacts: every value from a test or a target passes through here.

// XML 1.0 forbids most C0 controls even as character references, so they are dropped, not escaped.
// eslint-disable-next-line no-control-regex
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or attribute value for XML and HTML alike. */
export function escapeMarkup(value: unknown): string {
  return String(value ?? '').replace(INVALID_XML_CHARS, '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

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
