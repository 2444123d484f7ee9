// What a fuzz run uses when not told otherwise; apart from the generators, so the CLI can name them in its help
// without building fast-check's arbitraries at start-up.
export const DEFAULT_SEED = 1;
/** Generated requests per operation and mode. */
export const DEFAULT_BUDGET = 100;
