// ENV-02, ENV-03: environments of the caller's organization only, API keys only where the caller has access.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import type { ApiClient } from '../../harness/http/api-client.ts';
import { hasKeys, identifyCaller, type ListedEnvironment } from '../../fixtures/environments/caller-environment.ts';

async function listEnvironments(api: ApiClient, as: 'primary' | 'restricted' = 'primary') {
  const res = await api.get<ListedEnvironment[]>('/v1/environments', { as });
  return { res, listed: Array.isArray(res.data) ? res.data : [] };
}

conformance('ENV-02', 'every listed environment has the caller’s _organizationId and the caller key’s environment is listed', async ({ api, provision, notVerified }) => {
  const { res, listed } = await listEnvironments(api);
  expect(res.status, 'GET /v1/environments status').toBe(200);
  expect(listed.length, `an array of environments, got ${res.text.slice(0, 200)}`).toBeGreaterThan(0);
  const caller = await identifyCaller(provision, api, listed);
  // The organization must come from the caller, never from the list under test (which could agree with itself).
  const organizationId = caller.organizationId ?? listed.find((e) => e._id === caller.environmentId)?._organizationId;
  if (typeof organizationId !== 'string') return notVerified('the caller’s organization could not be identified independently of the list (no _organizationId on a created integration, no apiKeys holding the key)');
  for (const environment of listed) {
    expect(environment._organizationId, `environment ${environment._id} belongs to the caller’s organization`).toBe(organizationId);
  }
  if (!caller.environmentId) return notVerified('the caller key’s environment could not be identified (no _environmentId on a created integration, no apiKeys holding the key)');
  expect(listed.map((e) => e._id), `the caller key’s own environment ${caller.environmentId} (from ${caller.source}) is listed`).toContain(caller.environmentId);
});

conformance('ENV-02', 'the organization’s other environments are listed too: the secondary key’s environment is in the primary key’s list', async ({ api, provision, notVerified }) => {
  const { res, listed } = await listEnvironments(api);
  expect(res.status, 'GET /v1/environments status').toBe(200);
  const bySecondary = await api.get<ListedEnvironment[]>('/v1/environments', { as: 'secondary' });
  const other = await identifyCaller(provision, api, Array.isArray(bySecondary.data) ? bySecondary.data : [], 'secondary');
  if (!other.environmentId) return notVerified('the secondary key’s environment could not be identified (no _environmentId on an integration it created, no apiKeys holding it)');
  expect(listed.map((e) => e._id), `the secondary key’s environment ${other.environmentId} (from ${other.source}) belongs to the same organization: the primary key's list names it`).toContain(other.environmentId);
}, { needs: ['secondaryKey'] });

conformance('ENV-03', 'apiKeys are listed only on the caller key’s own environment', async ({ api, provision, target, notVerified }) => {
  const { res, listed } = await listEnvironments(api);
  expect(res.status, 'GET /v1/environments status').toBe(200);
  const caller = await identifyCaller(provision, api, listed);
  if (!caller.environmentId) return notVerified('the caller key’s environment could not be identified (no _environmentId on a created integration, no apiKeys holding the key)');
  for (const environment of listed.filter((e) => e._id !== caller.environmentId)) {
    expect(hasKeys(environment), `environment ${environment._id} is not the caller key’s (${caller.environmentId}): it must carry no apiKeys, got ${environment.apiKeys?.length ?? 0}`).toBe(false);
  }
  const secondary = target.keys.secondary;
  if (secondary) {
    const leaked = listed.some((e) => (e.apiKeys ?? []).some((k) => k.key === secondary));
    expect(leaked, 'the key of another environment (the configured secondary key) is not disclosed to the primary key').toBe(false);
  }
});

conformance(
  'ENV-03',
  'the restricted key is shown no apiKeys',
  async ({ api }) => {
    const { res, listed } = await listEnvironments(api, 'restricted');
    if (res.status !== 200) {
      expect([401, 403], `GET /v1/environments with the restricted key: 200 without keys, or a refusal; got ${res.status}`).toContain(res.status);
      return;
    }
    for (const environment of listed) {
      expect(hasKeys(environment), `environment ${environment._id} lists ${environment.apiKeys?.length ?? 0} apiKeys to the restricted key, which has access to none`).toBe(false);
    }
  },
  { needs: ['restrictedKey'] },
);
