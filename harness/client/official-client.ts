// The official SDK as a real client of the target, with its traffic sent through the harness's ApiClient: every
// exchange is recorded, redacted, checked passively and reproducible with curl, like any other test's.
import { NovuCore } from '@novu/api/core.js';
import { HTTPClient } from '@novu/api/lib/http.js';
import { ExchangeFailed, type ApiClient } from '../http/api-client.ts';

/** A NovuCore for the standalone `funcs/*` functions: pointed at the target, primary key, SDK retries off. */
export function officialClient(api: ApiClient): NovuCore {
  const key = api.keyOf('primary');
  if (!key) throw new Error('no primary API key is configured');
  return new NovuCore({
    secretKey: key,
    serverURL: api.target.baseUrl,
    // every answer reaches the suite: the SDK never retries (the ApiClient still waits out a 429, as for every test)
    retryConfig: { strategy: 'none' },
    httpClient: new HTTPClient({ fetcher: (input, init) => viaHarness(api, new Request(input, init)) }),
  });
}

async function viaHarness(api: ApiClient, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const base = new URL(api.target.baseUrl);
  const path = url.pathname.slice(base.pathname.replace(/\/$/, '').length) + url.search;
  const headers = Object.fromEntries([...request.headers.entries()].filter(([name]) => name !== 'authorization' && name !== 'content-type'));
  const sent = request.headers.get('authorization');
  const body = ['GET', 'HEAD'].includes(request.method) ? '' : await request.text();
  try {
    const res = await api.request(request.method, path, {
      // the SDK's own `ApiKey <key>` is what the primary identity sends; anything else goes out exactly as the SDK wrote it
      ...(sent === `ApiKey ${api.keyOf('primary')}` ? {} : { authorization: sent }),
      headers,
      ...(body !== '' ? { rawBody: body, contentType: request.headers.get('content-type') ?? 'application/json' } : {}),
    });
    return new Response([101, 204, 205, 304].includes(res.status) ? null : res.text, { status: res.status, headers: res.headers });
  } catch (error) {
    // the SDK turns a thrown fetch into its ConnectionError; the cause keeps the harness's account of the exchange
    if (error instanceof ExchangeFailed) throw new TypeError(error.message, { cause: error });
    throw error;
  }
}
