// The rules the official client's models judge on every exchange (client-checks.ts). Apart, so that what only needs
// their IDs — the runner's rule selection, in the main process — does not load the SDK's 420 model modules.
export const CLIENT_CHECKED_RULES = ['CLIENT-02', 'CLIENT-03'] as const;
export type ClientCheckedRule = (typeof CLIENT_CHECKED_RULES)[number];
