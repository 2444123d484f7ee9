// A test that cannot check its aspect because of the target's own answer (a header in the wrong unit, a wait that
// is missing) fails: that answer is itself the defect. `notVerified` stays for what the configuration or the run lacks.

/** Ends the test as failed, naming the aspect and the answer that kept it from being checked. */
export function unverifiableByTarget(aspect: string, answer: string): never {
  throw new Error(`${aspect} cannot be checked because of the target's own answer, which the rule does not allow: ${answer}`);
}

/**
 * A wait in seconds as a 429's Retry-After or a RateLimit-Reset states it, judged against the policy's window `w`:
 * missing, negative or beyond the window (milliseconds, an absolute time) is the target's doing. Fractions round up.
 */
export function secondsToWait(header: string | undefined, name: string, windowSeconds: number | undefined): number {
  if (header === undefined) return unverifiableByTarget('the wait', `the response carries no ${name}`);
  const wait = Number(header);
  if (!Number.isFinite(wait) || wait < 0) return unverifiableByTarget('the wait', `${name} "${header}" is not a number of seconds`);
  if (windowSeconds !== undefined && wait > windowSeconds) {
    return unverifiableByTarget('the wait', `${name} ${header} lies beyond the policy's window of ${windowSeconds} s: not seconds to wait (milliseconds, or an absolute time)`);
  }
  return Math.ceil(wait);
}
