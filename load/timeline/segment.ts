// k6 execution segments (`--execution-segment 1/2:1`): which share of a test one instance runs.

/** `0:1/2`, `1/2:1`, `50%`, `0.5:1` → [from, to]; a single value v means 0:v, as in k6. */
export function parseSegment(segment: string): [number, number] | undefined {
  const parts = segment.split(':').map(parseFraction);
  if (parts.some((p) => p === undefined) || parts.length > 2) return undefined;
  const [from, to] = parts.length === 1 ? [0, parts[0]!] : [parts[0]!, parts[1]!];
  return from < to && from >= 0 && to <= 1 ? [from, to] : undefined;
}

function parseFraction(v: string): number | undefined {
  const s = v.trim();
  if (/^\d+(\.\d+)?%$/.test(s)) return Number(s.slice(0, -1)) / 100;
  if (/^\d+\/\d+$/.test(s)) {
    const [n, d] = s.split('/').map(Number);
    return d ? n! / d : undefined;
  }
  return /^\d+(\.\d+)?$/.test(s) ? Number(s) : undefined;
}

/** An instance's share of n planned requests; the shares of segments that tile 0:1 add up to n exactly. */
export function shareOf(n: number, [from, to]: [number, number]): number {
  return Math.floor(n * to + 1e-9) - Math.floor(n * from + 1e-9);
}
