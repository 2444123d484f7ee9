// Tests that check an aspect beyond their rule's text (a fact of the deployed service, an opt-in wait): when such a
// test ends not verified, its rule may still pass on its other tests. Keyed by the test's title as it runs.
// Every other test of a rule that ends not verified keeps the rule from `pass` (report/verdicts.ts).
export const OPTIONAL_ASPECTS: Readonly<Record<string, string>> = {
  'a keyed workflow creation repeated 25 s later is still replayed and creates nothing':
    'the 24 h key retention is a fact of the deployed service (provisioning), not of IDEM-02; it needs --long-checks',
  'accepts a trigger with each bridgeUrl the operator names as acceptable (bridge.acceptableUrls)':
    'which public https bridgeUrls a target accepts is for its operator to say (bridge.acceptableUrls): without one the suite knows no valid bridgeUrl',
};
