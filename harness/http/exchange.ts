// One recorded request/response pair, already redacted: the unit of evidence in every report.

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  durationMs: number;
  /** Set when no complete response arrived (timeout, reset, oversized body). */
  error?: string;
  errorKind?: import('./transport.ts').FailureKind;
  /** The recorded response body was cut short (passive schema checks skip it). */
  truncated?: boolean;
  /** Set when the answer came from a proxy in front of the target (harness/http/intermediary.ts): no check judges it. */
  fromTheRoad?: string;
  /** True when the request carried credentials the target should accept (for passive checks). */
  authenticated: boolean;
}

const SHOWN_BODY_CHARS = 2_000;

export function truncate(text: string, max = SHOWN_BODY_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** A shell command that repeats the exchange; secrets stay in environment variables. */
export function toCurl(exchange: Exchange): string {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const parts = ['curl', '-sS', '-i', '-X', exchange.method, quote(exchange.url)];
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    // Placeholders such as ${CONFORMANCE_API_KEY} must expand in the user's shell, so those go in double quotes.
    parts.push('-H', value.includes('${') ? `"${name}: ${value.replaceAll('"', '\\"')}"` : quote(`${name}: ${value}`));
  }
  if (exchange.requestBody !== undefined) parts.push('--data-raw', quote(exchange.requestBody));
  return parts.join(' ');
}

/** A short human-readable account of the exchange for failure messages. */
export function describeExchange(exchange: Exchange): string {
  const head = `${exchange.method} ${exchange.url}`;
  if (exchange.error) return `${head} → ${exchange.error}`;
  // why: the body's own line breaks stay indented and blank lines go, so a page ending in a blank line cannot end the
  // exchange's block early (reports split messages on blank lines; the reproducer would stand alone as a finding)
  const shown = exchange.responseBody ? truncate(exchange.responseBody, 600).replace(/\s+$/, '').replace(/\r?\n(?:[ \t]*\r?\n)*/g, '\n    ') : '';
  const body = shown ? `\n  body: ${shown}` : '';
  return `${head} → ${exchange.status}${body}\n  reproduce: ${toCurl(exchange)}`;
}
