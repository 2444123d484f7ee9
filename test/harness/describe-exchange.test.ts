// An exchange in a failure message stays one block whatever its body holds: a proxy's error page ending in a blank
// line does not cut the reproducer off into a root cause of its own.
import { describe, expect, it } from 'vitest';
import { describeExchange, type Exchange } from '../../harness/http/exchange.ts';
import { signaturesOf } from '../../report/failure-signature.ts';

const NGINX_502 = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n\r\n';
const exchange: Exchange = { method: 'POST', url: 'http://127.0.0.1:1/v1/events/trigger', requestHeaders: {}, status: 502, responseHeaders: {}, responseBody: NGINX_502, durationMs: 3, authenticated: true };

describe('an exchange described in a failure message', () => {
  it('keeps every line of the body indented, with no blank line, and the reproducer last', () => {
    const text = describeExchange(exchange);
    expect(text).not.toMatch(/\n\s*\n/);
    expect(text.split('\n').slice(1).every((line) => /^\s/.test(line))).toBe(true);
    expect(text.split('\n').at(-1)).toMatch(/^ {2}reproduce: curl /);
  });

  it('is one root cause with the check that saw it, never a reproducer on its own', () => {
    const passive = `in "a trigger whose payload is over 512 KB gets 413 [ERR-05]": 502 response lacks ratelimit-limit\n  ${describeExchange(exchange)}`;
    const signatures = signaturesOf(passive, true);
    expect(signatures.map((s) => s.summary).join('\n')).not.toMatch(/reproduce|curl/);
    expect(signatures).toHaveLength(1);
  });
});
