// Turns the official client's zod validation errors into one line per missing or mistyped field, with its path.
// For a union (e.g. the eleven step types) the member whose discriminator matched is the one that speaks.

/** The part of a zod v3 issue this module reads (the SDK's zod instance is not ours, so no class checks). */
interface ZodIssueLike {
  code: string;
  path: (string | number)[];
  message: string;
  expected?: unknown;
  received?: unknown;
  unionErrors?: { issues: ZodIssueLike[] }[];
}

export interface ZodErrorLike {
  issues: ZodIssueLike[];
}

export function isZodErrorLike(value: unknown): value is ZodErrorLike {
  return typeof value === 'object' && value !== null && Array.isArray((value as ZodErrorLike).issues);
}

/** `steps.0.workflowDatabaseId: Required`, `type: Invalid enum value. Expected 'REGULAR' | …, received 'email'`. */
export function issueLines(error: ZodErrorLike, prefix: (string | number)[] = []): string[] {
  return flatten(error.issues).map((issue) => {
    const path = [...prefix, ...issue.path].join('.');
    return `${path || '(root)'}: ${issue.message}`;
  });
}

function flatten(issues: ZodIssueLike[]): ZodIssueLike[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || !issue.unionErrors?.length) return [issue];
    const atUnion = issue.unionErrors.map((e) => e.issues).filter((m) => m.length === 1 && m[0]!.path.length === issue.path.length);
    // every member rejected the value itself (string | number | …): one line naming what was expected
    if (atUnion.length === issue.unionErrors.length) {
      const expected = [...new Set(atUnion.map((m) => String(m[0]!.expected ?? m[0]!.code)))].join(' | ');
      return [{ ...issue, message: `Expected ${expected}, received ${String(atUnion[0]![0]!.received)}` }];
    }
    const member = likeliestMember(issue.unionErrors.map((e) => e.issues));
    return member ? flatten(member) : [issue];
  });
}

/** The member that failed on its fields, not on its discriminator (`type`); among those, the closest. */
function likeliestMember(members: ZodIssueLike[][]): ZodIssueLike[] | undefined {
  const discriminatorMissed = (issues: ZodIssueLike[]) =>
    issues.some((i) => i.path.at(-1) === 'type' && (i.code === 'invalid_literal' || i.code === 'invalid_enum_value'));
  const plausible = members.filter((issues) => !discriminatorMissed(issues));
  const candidates = plausible.length > 0 ? plausible : members.length === 1 ? members : [];
  return candidates.sort((a, b) => a.length - b.length)[0];
}
