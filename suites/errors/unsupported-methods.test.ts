// A method the interface does not define on a known path gets 405 (or 404) with the common error body, and a 405
// names the path's methods in Allow (ERR-04).
import { expect } from 'vitest';
import { allowProblem } from '../../harness/checks/allow-header.ts';
import { conformance } from '../../fixtures/conformance.ts';
import { expectErrorResponse } from '../../harness/checks/error-body.ts';
import { OPERATIONS } from '../../harness/operations.ts';

// PUT is defined on none of the eight paths (nor by the deployed service); DELETE on two collection paths neither.
const UNSUPPORTED = [
  ...OPERATIONS.map((op) => ({ method: 'PUT', path: op.samplePath, template: op.template, body: op.sampleBody, defined: op.method })),
  { method: 'DELETE', path: '/v1/events/trigger', template: '/v1/events/trigger', body: undefined, defined: 'POST' },
  { method: 'DELETE', path: '/v1/environments', template: '/v1/environments', body: undefined, defined: 'GET' },
];

for (const { method, path, template, body, defined } of UNSUPPORTED) {
  conformance('ERR-04', `${method} ${template} gets 405 or 404 with the common error body`, async ({ api }) => {
    const res = await api.request(method, path, body === undefined ? {} : { body });
    expect([405, 404], `${method} on the known path ${path} is not an operation: 405 (or 404), never 2xx or 5xx; got ${res.status}`).toContain(res.status);
    expectErrorResponse(res, res.status, `${method} ${path}`);
    expect(allowProblem(res.status, res.headers, method, defined), `${method} ${path}`).toBeUndefined();
  });
}
