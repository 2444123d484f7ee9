// JSON read from a bundle is bounded before it is parsed: JSON.parse takes any depth, and a few kilobytes nested
// thousands of levels deep made later comparisons of the parsed value take gigabytes. A linear scan counts the
// nesting outside strings first (hand-written: no pinned parser offers a depth limit without parsing twice).

/** A bundle's JSON nests a dozen levels; this leaves a wide margin. */
export const JSON_LIMITS = { depth: 64, bytes: 32 * 1024 * 1024 } as const;

export class JsonBoundError extends Error {}

/** The parsed value; throws JsonBoundError when the text is too deep or too big, SyntaxError when it is no JSON. */
export function parseBoundedJson(text: string | Buffer, limits: { depth: number; bytes: number } = JSON_LIMITS): unknown {
  const s = typeof text === 'string' ? text : text.toString('utf8');
  if (s.length > limits.bytes) throw new JsonBoundError(`${s.length} characters, over the ${limits.bytes} a bundle's JSON may take`);
  let depth = 0;
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limits.depth) throw new JsonBoundError(`it nests deeper than ${limits.depth} levels`);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return JSON.parse(s) as unknown;
}
