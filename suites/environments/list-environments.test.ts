import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';

conformance('ENV-01', 'GET /v1/environments answers 200 with an array of environments of type dev or prod', async ({ api }) => {
  const res = await api.get('/v1/environments');
  expect(res.status, 'GET /v1/environments status').toBe(200);
  expect(Array.isArray(res.data), `expected an array of environments, got ${res.text.slice(0, 200)}`).toBe(true);
  expect(res.data.length, 'at least the caller key’s own environment is listed').toBeGreaterThan(0);
  for (const environment of res.data) {
    expect(environment).toMatchSchema('EnvironmentDto');
    expect(['dev', 'prod'], `environment ${environment._id} type`).toContain(environment.type);
  }
});
