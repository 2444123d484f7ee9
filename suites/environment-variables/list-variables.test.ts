// EV-01..EV-03: the list, secret masking and stored non-secret values.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { listVariables, listedVariables, SEARCH_PARAM, type Variable } from '../../fixtures/environment-variables/variables.ts';
import { revealedBy } from '../../fixtures/environment-variables/derivable.ts';

conformance('EV-01', 'GET /v1/environment-variables answers 200 with an array of schema-valid environment variables', async ({ api, provision, ids, notVerified, note }) => {
  const { own } = await provision.environments();
  if (!own) return notVerified('no environment of the caller could be identified (no apiKeys listed), so no variable value can be created for it');
  const { key } = await provision.environmentVariable({ isSecret: false, values: [{ _environmentId: own._id, value: ids.slug('value') }] });
  const res = await listVariables(api);
  expect(res.status, 'GET /v1/environment-variables status').toBe(200);
  expect({ method: 'GET', path: '/v1/environment-variables', status: res.status, body: res.json }).toMatchResponseSchema();
  expect(Array.isArray(res.data), `an array of environment variables, got ${res.text.slice(0, 200)}`).toBe(true);
  expect(res.data.map((v: { key?: string }) => v.key), `the list includes the variable ${key} created for this test`).toContain(key);
  for (const variable of res.data) expect(variable).toMatchSchema('EnvironmentVariableDto');
});

conformance('EV-02', "no environment's secret value comes back readable: not as stored, in another letter case, reversed or in a common encoding", async ({ api, provision, ids, target, notVerified, note }) => {
  const { all } = await provision.environments();
  if (all.length === 0) return notVerified('the target lists no environments, so no secret value can be created');
  // one plaintext per environment, mixed case and with characters URL-encoding changes, so every encoding differs from it
  const stored = all.map((e, i) => ({ _environmentId: e._id, value: `${ids.slug('secret')}-${i} Plain/Text+${e.type}` }));
  const { key } = await provision.environmentVariable({ isSecret: true, values: stored });
  const readers = target.keys.secondary ? (['primary', 'secondary'] as const) : (['primary'] as const);

  for (const as of readers) {
    for (const search of [undefined, key]) {
      const res = await api.get<Variable[]>('/v1/environment-variables', { as, ...(search === undefined ? {} : { query: { [SEARCH_PARAM]: search } }) });
      const what = `the list read with the ${as} key${search === undefined ? '' : ` and ${SEARCH_PARAM}=${key}`}`;
      expect(res.status, `${what} answers 200`).toBe(200);
      const variable = (Array.isArray(res.data) ? res.data : []).find((v) => v.key === key);
      expect(variable, `the secret variable ${key} is listed in ${what}`).toBeDefined();
      expect(variable?.isSecret, 'the variable is listed as isSecret').toBe(true);
      expect(variable?.values?.length, 'the secret variable lists its values (masked), so the check below is not vacuous').toBeGreaterThan(0);
      for (const { _environmentId, value } of variable?.values ?? []) {
        if (as === 'primary' && search === undefined) note(`secret value read back as ${JSON.stringify(value)}${value === '••••••••' ? ' (the deployed service’s mask)' : ''}`);
        for (const { value: plaintext } of stored) {
          const how = typeof value === 'string' ? revealedBy(value, plaintext) : undefined;
          expect(how, `${what}: the value listed for environment ${String(_environmentId)} reveals a stored secret (${how}); a mask must not let the plaintext be read back`).toBeUndefined();
        }
      }
      for (const { _environmentId, value: plaintext } of stored) {
        const how = revealedBy(res.text, plaintext);
        expect(how, `${what}: the secret of environment ${_environmentId} can be read off the response (${how})`).toBeUndefined();
      }
    }
  }
});

conformance('EV-03', 'non-secret values are listed as stored, one entry per environment', async ({ api, provision, ids, notVerified }) => {
  const { all } = await provision.environments();
  if (all.length === 0) return notVerified('the target lists no environments, so no variable value can be created');
  const stored = all.map((e) => ({ _environmentId: e._id, value: `${ids.slug('value')}-${e.type}` }));
  const { key } = await provision.environmentVariable({ isSecret: false, values: stored });

  const variable = (await listedVariables(api, key)).find((v) => v.key === key);
  expect(variable, `the variable ${key} is listed`).toBeDefined();
  expect(variable?.isSecret, 'the variable is listed as not secret').toBe(false);
  for (const { _environmentId, value } of stored) {
    const entries = (variable?.values ?? []).filter((v) => v._environmentId === _environmentId);
    expect(entries.length, `exactly one value entry for environment ${_environmentId}, got ${JSON.stringify(variable?.values)}`).toBe(1);
    expect(entries[0]?.value, `the value for environment ${_environmentId} is returned as stored`).toBe(value);
  }
  expect(variable?.values?.length, 'one entry per environment given, no more').toBe(stored.length);
});
