import { describe, expect, it } from 'vitest';
import { describeExchange, toCurl, type Exchange } from '../../harness/http/exchange.ts';
import { Redactor } from '../../report/redactor.ts';

const redactor = new Redactor([
  { value: 'sk_live_primary', placeholder: 'CONFORMANCE_API_KEY' },
  { value: 'sk_live_primary_longer', placeholder: 'CONFORMANCE_SECONDARY_API_KEY' },
]);

describe('Redactor', () => {
  it('replaces keys by placeholders in headers, longest first', () => {
    expect(redactor.text('ApiKey sk_live_primary_longer')).toBe('ApiKey ${CONFORMANCE_SECONDARY_API_KEY}');
    expect(redactor.text('ApiKey sk_live_primaryx')).toBe('ApiKey ${CONFORMANCE_API_KEY}x');
  });

  it('removes keys from bodies', () => {
    expect(redactor.body('{"apiKeys":[{"key":"sk_live_primary"}]}')).toBe('{"apiKeys":[{"key":"[REDACTED]"}]}');
  });
});

describe('reproducers', () => {
  const exchange: Exchange = {
    method: 'POST',
    url: 'http://127.0.0.1:9/v1/events/trigger',
    requestHeaders: { authorization: redactor.text('ApiKey sk_live_primary'), 'content-type': 'application/json' },
    requestBody: `{"name":"it's"}`,
    status: 400,
    responseBody: '{"statusCode":400}',
    durationMs: 3,
    authenticated: true,
  };

  it('keeps the key in an environment variable and quotes the body for the shell', () => {
    const curl = toCurl(exchange);
    expect(curl).toContain('"authorization: ApiKey ${CONFORMANCE_API_KEY}"');
    expect(curl).toContain(`--data-raw '{"name":"it'\\''s"}'`);
    expect(curl).not.toContain('sk_live');
  });

  it('describes the exchange with status, body and reproducer', () => {
    expect(describeExchange(exchange)).toMatch(/POST http:\/\/127\.0\.0\.1:9\/v1\/events\/trigger → 400\n {2}body: .*\n {2}reproduce: curl/);
  });
});
