// How long the idempotency store holds a key (provisioning.md): alone in this file because their mutants only show
// over time — a completed key kept 24 s instead of 24 h needs a test that waits (the long checks).

/** An in-flight key's lock, in case its handler never completes or releases it. */
export const IN_PROGRESS_TTL_MS = 5 * 60 * 1000;
/** A completed key's cached response: replayed for 24 h. */
export const COMPLETED_TTL_MS = 24 * 60 * 60 * 1000;
