import { conformance } from '../../fixtures/conformance.ts';
import { expectErrorResponse } from '../../harness/checks/error-body.ts';
import { probe } from '../../harness/checks/probe.ts';
import { OPERATIONS, operationLabel } from '../../harness/operations.ts';

for (const op of OPERATIONS) {
  conformance('AUTH-01', `${operationLabel(op)} without Authorization gets 401 and the common error body`, async ({ api, cleanup }) => {
    const res = await probe(api, cleanup, op, { authorization: null });
    expectErrorResponse(res, 401, 'a request without an Authorization header');
  });
}
