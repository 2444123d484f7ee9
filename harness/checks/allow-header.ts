// ERR-04: a 405 names the methods the path supports in `Allow` (RFC 9110 §15.5.6): the refused method is not one of
// them, and the operation the spec defines on the path is.

/** RFC 9110 §9.1 and §5.6.2: `method = token`, one or more tchar. */
const METHOD_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** What is wrong with a 405's `Allow`, or undefined when it holds (or the answer is no 405). */
export function allowProblem(status: number, headers: Record<string, string>, refused: string, defined: string): string | undefined {
  if (status !== 405) return undefined;
  const raw = headers.allow;
  if (raw === undefined) return `a 405 to ${refused} carries no Allow header naming the path's methods`;
  const methods = raw.split(',').map((m) => m.trim().toUpperCase()).filter((m) => m !== '');
  const notMethod = methods.find((m) => !METHOD_TOKEN.test(m));
  if (notMethod !== undefined) return `Allow: ${JSON.stringify(raw)} holds ${JSON.stringify(notMethod)}, which is no method (RFC 9110: a method is a token)`;
  if (!methods.includes(defined)) return `Allow: ${JSON.stringify(raw)} leaves out ${defined}, which the path supports`;
  if (methods.includes(refused.toUpperCase())) return `Allow: ${JSON.stringify(raw)} names ${refused}, the method just refused with 405`;
  return undefined;
}
