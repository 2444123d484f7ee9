import { conformance } from '../../fixtures/conformance.ts';
import { expectErrorResponse } from '../../harness/checks/error-body.ts';
import { probe } from '../../harness/checks/probe.ts';
import { OPERATIONS, operationLabel } from '../../harness/operations.ts';

for (const op of OPERATIONS) {
  conformance('AUTH-02', `${operationLabel(op)} with an unknown, empty or padded key gets 401`, async ({ api, cleanup, target }) => {
    const variants = { 'ApiKey nope': 'ApiKey nope', 'empty ApiKey value': 'ApiKey ', 'valid key + trailing garbage': `ApiKey ${target.keys.primary}x`, 'valid key + a space and trailing garbage': `ApiKey ${target.keys.primary} x` };
    for (const [label, authorization] of Object.entries(variants)) {
      const res = await probe(api, cleanup, op, { authorization });
      expectErrorResponse(res, 401, `Authorization "${label}"`);
    }
  });

  conformance('AUTH-03', `${operationLabel(op)} with a valid key under the Bearer scheme gets 401`, async ({ api, cleanup, target }) => {
    const res = await probe(api, cleanup, op, { authorization: `Bearer ${target.keys.primary}` });
    expectErrorResponse(res, 401, 'a valid key sent as "Bearer <key>"');
  });

  // Another scheme whose name merely ends in "ApiKey": the scheme is the whole first word (the deployed service checks
  // that the header starts with "ApiKey ").
  conformance('AUTH-03', `${operationLabel(op)} with a valid key under the X-ApiKey scheme gets 401`, async ({ api, cleanup, target }) => {
    const res = await probe(api, cleanup, op, { authorization: `X-ApiKey ${target.keys.primary}` });
    expectErrorResponse(res, 401, 'a valid key sent as "X-ApiKey <key>"');
  });

  conformance(
    'AUTH-03',
    `${operationLabel(op)} with a bare valid key (no scheme) gets 401`,
    async ({ api, cleanup, target }) => {
      const res = await probe(api, cleanup, op, { authorization: target.keys.primary });
      expectErrorResponse(res, 401, 'a valid key sent without the ApiKey scheme');
    },
    { level: 'SHOULD' },
  );
}
