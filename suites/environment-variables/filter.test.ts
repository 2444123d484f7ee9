// EV-04..EV-06: the key filter (query `search`): case-insensitive, partial, at most 256 characters, literal.
import fc from 'fast-check';
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

conformance('EV-04', `the ${SEARCH_PARAM} filter matches keys case-insensitively and partially, anywhere in the key`, async ({ api, provision, notVerified }) => {
  const key = await variable(provision, notVerified);
  const inner = key.slice(2, -2);
  const cases: Record<string, string> = {
    'the whole key in lower case': key.toLowerCase(),
    'an inner part of the key (neither prefix nor suffix)': inner,
    'an inner part of the key in lower case': inner.toLowerCase(),
    'a suffix of the key in lower case': key.slice(-6).toLowerCase(),
  };
  // and a sample of the whole class: any part of the key, in any mix of letter cases
  const parts = fc.sample(fc.tuple(fc.nat(key.length - 4), fc.integer({ min: 4, max: 12 }), fc.array(fc.boolean(), { minLength: 12, maxLength: 12 })), 6);
  for (const [start, length, lower] of parts) {
    const part = [...key.slice(start, start + length)].map((c, i) => (lower[i] ? c.toLowerCase() : c)).join('');
    cases[`characters ${start}..${start + part.length - 1} of the key, mixed case`] = part;
  }
  for (const [label, search] of Object.entries(cases)) {
    expect(keysOf(await listedVariables(api, search)), `${SEARCH_PARAM}=${search} (${label}) lists the variable ${key}`).toContain(key);
  }
  // control: the filter filters at all
  expect(keysOf(await listedVariables(api, `${key}_NOMATCH`)), `${SEARCH_PARAM}=${key}_NOMATCH does not list ${key}`).not.toContain(key);
});

conformance('EV-04', `the ${SEARCH_PARAM} filter matches keys only, never values`, async ({ api, provision, ids, notVerified }) => {
  const { all } = await provision.environments();
  if (all.length === 0) return notVerified('the target lists no environments, so no variable value can be created');
  const value = ids.slug('valueonly').toUpperCase().replaceAll('-', '_');
  const { key } = await provision.environmentVariable({ isSecret: false, values: all.map((e) => ({ _environmentId: e._id, value })) });
  expect(keysOf(await listedVariables(api, key)), `control: ${SEARCH_PARAM}=${key} lists the variable`).toContain(key);
  for (const search of [value, value.toLowerCase(), value.slice(3, -3)]) {
    expect(keysOf(await listedVariables(api, search)), `${SEARCH_PARAM}=${search} occurs only in the value of ${key}, not in its key: the key filter must not list it`).not.toContain(key);
  }
});

// Characters, not bytes or escapes: a 256-character filter of two- and three-byte UTF-8 characters is within the limit.
const FILTER_ALPHABETS = { 'ASCII `A`': 'A', 'two-byte `é`': '\u00e9', 'three-byte `日`': '\u65e5' };

conformance('EV-05', `a ${SEARCH_PARAM} filter of ${MAX_FILTER} characters is accepted and one of ${MAX_FILTER + 1} is rejected with 4xx, counted in characters`, async ({ api }) => {
  for (const [label, char] of Object.entries(FILTER_ALPHABETS)) {
    const atLimit = await listVariables(api, char.repeat(MAX_FILTER));
    expect(atLimit.status, `a filter of exactly ${MAX_FILTER} ${label} characters is within the limit (${Buffer.byteLength(char.repeat(MAX_FILTER))} bytes in UTF-8): 200`).toBe(200);
    const over = await listVariables(api, char.repeat(MAX_FILTER + 1));
    expect(over.status, `a filter of ${MAX_FILTER + 1} ${label} characters exceeds the maximum length ${MAX_FILTER}: 4xx, got ${over.status}`).toBeGreaterThanOrEqual(400);
    expect(over.status, `a filter of ${MAX_FILTER + 1} ${label} characters is a client error (4xx)`).toBeLessThan(500);
  }
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
