// How the reference names itself on every answer: a target that answers with this header is the reference (served on
// its own with `conformance reference`, or in an image), never a candidate, so a run against it cannot certify.
import { readFileSync } from 'node:fs';

/** The response header every answer of the reference carries, its value the suite's version. */
export const REFERENCE_HEADER = 'X-Conformance-Reference';

export const REFERENCE_VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
