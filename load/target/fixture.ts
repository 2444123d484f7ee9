// Creates what a load run triggers (an active workflow) and removes it, with the subscribers the run upserted.
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import type { LoadFixture } from '../scenarios/routes.ts';

export interface ProvisionedFixture extends LoadFixture {
  /** Removes everything created; returns what could not be removed (leaks). */
  cleanup(): Promise<string[]>;
}

export class ProvisioningError extends Error {}

export async function provisionFixture(baseUrl: string, apiKey: string): Promise<ProvisionedFixture> {
  const run = `load-${randomBytes(3).toString('hex')}`;
  const workflowId = `${run}-wf`;
  const headers = { authorization: `ApiKey ${apiKey}`, 'content-type': 'application/json' };
  const url = (p: string) => new URL(p.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
  const created = await call('POST', url('/v2/workflows'), headers, { name: `Load ${run}`, workflowId, steps: [{ name: 's', type: 'in_app' }], active: true });
  if (created.status !== 201 && created.status !== 200) {
    throw new ProvisioningError(`POST /v2/workflows answered ${created.status} (expected 201): ${created.text.slice(0, 200)}`);
  }
  const data = JSON.parse(created.text) as { data?: { _id?: string }; _id?: string };
  const internalId = data.data?._id ?? data._id ?? workflowId;
  const fixture: LoadFixture = { workflowId, subscriberId: `${run}-sub`, bulkSubscriberId: `${run}-bulk-sub` };
  return {
    ...fixture,
    async cleanup() {
      const leaks: string[] = [];
      const del = async (path: string, what: string, okIfMissing: boolean) => {
        const r = await call('DELETE', url(path), headers).catch((e: Error) => ({ status: 0, text: e.message }));
        if (!(r.status >= 200 && r.status < 300) && !(okIfMissing && r.status === 404)) leaks.push(`${what} (DELETE ${path} answered ${r.status})`);
      };
      await del(`/v2/workflows/${encodeURIComponent(internalId)}`, `workflow ${workflowId}`, false);
      // why: triggers upsert their recipient; bulk-subscribers creates one; either may not exist if nothing was accepted
      await del(`/v2/subscribers/${encodeURIComponent(fixture.subscriberId)}`, `subscriber ${fixture.subscriberId}`, true);
      await del(`/v2/subscribers/${encodeURIComponent(fixture.bulkSubscriberId)}`, `subscriber ${fixture.bulkSubscriberId}`, true);
      return leaks;
    },
  };
}

async function call(method: 'POST' | 'DELETE', url: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; text: string }> {
  for (let attempt = 1; ; attempt++) {
    const res = await request(url, { method, headers, body: body === undefined ? null : JSON.stringify(body), headersTimeout: 10_000, bodyTimeout: 10_000 });
    const text = await res.body.text();
    // why: provisioning right after a load phase may meet a drained bucket; wait out Retry-After (≤ 10 s, 3 tries)
    const wait = Number(res.headers['retry-after'] ?? 1);
    if (res.statusCode !== 429 || attempt >= 3) return { status: res.statusCode, text };
    await new Promise((r) => setTimeout(r, Math.min(10, Number.isFinite(wait) ? wait : 1) * 1000 + 50));
  }
}
