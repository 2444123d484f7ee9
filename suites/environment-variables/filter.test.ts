// EV-04..EV-06: the key filter (query `search`): case-insensitive, partial, at most 256 characters, literal.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import type { Provisioner } from '../../fixtures/provision.ts';
import { keysOf, listVariables, listedVariables, SEARCH_PARAM } from '../../fixtures/environment-variables/variables.ts';

const MAX_FILTER = 256;

/** A variable with an unguessable upper-case key (e.g. `CFT_1A2B3C_VAR_4D5E6F_1`). */
async function variable(provision: Provisioner, notVerified: (reason: string) => never): Promise<string> {
  const { own } = await provision.environments();
  if (!own) notVerified('no environment of the caller could be identified (no apiKeys listed), so no variable value can be created for it');
  return (await provision.environmentVariable({ isSecret: false, values: [{ _environmentId: own._id, value: 'conformance' }] })).key;
}

conformance('EV-04', `the ${SEARCH_PARAM} filter matches keys case-insensitively and partially`, async ({ api, provision, notVerified }) => {
  const key = await variable(provision, notVerified);
  const inner = key.slice(2, -2);
  const cases = {
    'the whole key in lower case': key.toLowerCase(),
    'an inner part of the key (neither prefix nor suffix)': inner,
    'an inner part of the key in lower case': inner.toLowerCase(),
  };
  for (const [label, search] of Object.entries(cases)) {
    expect(keysOf(await listedVariables(api, search)), `${SEARCH_PARAM}=${search} (${label}) lists the variable ${key}`).toContain(key);
  }
  // control: the filter filters at all
  expect(keysOf(await listedVariables(api, `${key}_NOMATCH`)), `${SEARCH_PARAM}=${key}_NOMATCH does not list ${key}`).not.toContain(key);
});

conformance('EV-05', `a ${SEARCH_PARAM} filter of ${MAX_FILTER} characters is accepted and one of ${MAX_FILTER + 1} is rejected with 4xx`, async ({ api }) => {
  const atLimit = await listVariables(api, 'A'.repeat(MAX_FILTER));
  expect(atLimit.status, `a filter of exactly ${MAX_FILTER} characters is within the limit: 200`).toBe(200);
  const over = await listVariables(api, 'A'.repeat(MAX_FILTER + 1));
  expect(over.status, `a filter of ${MAX_FILTER + 1} characters exceeds the maximum length ${MAX_FILTER}: 4xx, got ${over.status}`).toBeGreaterThanOrEqual(400);
  expect(over.status, `a filter of ${MAX_FILTER + 1} characters is a client error (4xx)`).toBeLessThan(500);
});

conformance('EV-06', `regex metacharacters in the ${SEARCH_PARAM} filter are matched literally, never an error`, async ({ api, provision, notVerified }) => {
  const key = await variable(provision, notVerified);
  // none of these characters occur in the key, so a literal match lists nothing of it; as a pattern, `.*` matches every key
  for (const search of ['.*', '.+', '[A-Z]', '(', '[', '*', '\\', '^$|.']) {
    const res = await listVariables(api, search);
    expect(res.status, `${SEARCH_PARAM}=${search} is a plain text filter: 200, never an error`).toBe(200);
    expect(Array.isArray(res.data), `${SEARCH_PARAM}=${search} answers an array`).toBe(true);
    expect(keysOf(res.data), `${SEARCH_PARAM}=${search} taken literally does not match the key ${key}`).not.toContain(key);
  }
});
