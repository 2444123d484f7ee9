// Worker side of the Allure results: each exchange of a test as one attachment, its request then its response (one
// file an exchange: a run writes thousands, and creating each file is what costs at the end of a run).
// Exchanges are redacted when recorded; the reporter's writer redacts once more on the way to disk.
import { attachment } from 'allure-js-commons';
import { inject } from 'vitest';
import { toCurl, type Exchange } from '../http/exchange.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** True when the session writes Allure results (`conformance run`); fault proofs and self-tests do not. */
    allure?: boolean;
  }
}

/** Rate-limit tests send hundreds of requests; past this many, only the last ones are attached. */
const MAX_ATTACHED = 40;

export async function attachExchanges(exchanges: readonly Exchange[]): Promise<void> {
  if (!inject('allure')) return;
  const shown = exchanges.slice(-MAX_ATTACHED);
  const offset = exchanges.length - shown.length;
  if (offset > 0) await attachment(`${offset} earlier exchanges not attached`, `${exchanges.length} exchanges in all; the last ${shown.length} are attached.`, 'text/plain');
  for (const [i, exchange] of shown.entries()) {
    const n = String(offset + i + 1).padStart(2, '0');
    const label = `${n} ${exchange.method} ${pathOf(exchange.url)}`;
    await attachment(`${label} — ${exchange.status ?? 'no response'}`, `${requestText(exchange)}\n${responseText(exchange)}`, 'text/plain');
  }
}

function requestText(e: Exchange): string {
  const headers = Object.entries(e.requestHeaders).map(([k, v]) => `${k}: ${v}`).join('\n');
  return `${e.method} ${e.url}\n${headers}\n\n${e.requestBody ?? ''}\n\n# reproduce (keys are read from the environment)\n${toCurl(e)}\n`;
}

function responseText(e: Exchange): string {
  if (e.error) return `no complete response after ${e.durationMs} ms: ${e.error}\n`;
  const headers = Object.entries(e.responseHeaders ?? {}).map(([k, v]) => `${k}: ${v}`).join('\n');
  return `HTTP ${e.status} (${e.durationMs} ms)\n${headers}\n\n${e.responseBody ?? ''}${e.truncated ? '\n… (body truncated)' : ''}\n`;
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}
