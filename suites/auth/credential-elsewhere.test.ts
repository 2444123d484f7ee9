import { conformance } from '../../fixtures/conformance.ts';
import { expectErrorResponse } from '../../harness/checks/error-body.ts';
import { probe } from '../../harness/checks/probe.ts';
import { OPERATIONS, operationLabel } from '../../harness/operations.ts';

// AUTH-01: only the Authorization header carries a credential; a valid key anywhere else is no credential.
for (const op of OPERATIONS) {
  conformance('AUTH-01', `${operationLabel(op)} with a valid key in X-Api-Key or ?apiKey= but no Authorization gets 401`, async ({ api, cleanup, target }) => {
    const key = target.keys.primary;
    const elsewhere = {
      'an X-Api-Key header': { headers: { 'x-api-key': key } },
      'an Api-Key header': { headers: { 'api-key': key } },
      'the apiKey query parameter': { query: { apiKey: key } },
      'the api_key query parameter': { query: { api_key: key } },
    };
    for (const [where, options] of Object.entries(elsewhere)) {
      const res = await probe(api, cleanup, op, { authorization: null, ...options });
      expectErrorResponse(res, 401, `a valid key in ${where}, without an Authorization header`);
    }
  });
}
