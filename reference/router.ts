// Path matching: static segments and `:param` segments; distinguishes unknown path (404) from bad method (405).
import type { RouteDef } from './context.ts';
import { HttpError } from './errors.ts';

interface CompiledRoute {
  def: RouteDef;
  segments: string[];
}

export type MatchResult =
  | { kind: 'route'; route: RouteDef; params: Record<string, string> }
  | { kind: 'method-not-allowed'; route: RouteDef; allowed: string[] }
  | { kind: 'not-found' };

export class Router {
  private readonly byLength = new Map<number, CompiledRoute[]>();

  constructor(defs: readonly RouteDef[]) {
    for (const def of defs) {
      const segments = def.path.split('/').slice(1);
      const list = this.byLength.get(segments.length) ?? [];
      list.push({ def, segments });
      this.byLength.set(segments.length, list);
    }
  }

  match(method: string, path: string): MatchResult {
    let p = path;
    if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1); // why: `/v2/subscribers/` is the documented form
    const parts = p.split('/').slice(1);
    const candidates = this.byLength.get(parts.length);
    if (!candidates) return { kind: 'not-found' };
    let pathMatch: RouteDef | undefined;
    const allowed: string[] = [];
    for (const c of candidates) {
      const params = matchSegments(c.segments, parts);
      if (!params) continue;
      if (c.def.method === method) return { kind: 'route', route: c.def, params };
      pathMatch ??= c.def;
      allowed.push(c.def.method);
    }
    return pathMatch ? { kind: 'method-not-allowed', route: pathMatch, allowed } : { kind: 'not-found' };
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  let params: Record<string, string> | null = null;
  for (let i = 0; i < pattern.length; i++) {
    const seg = pattern[i]!;
    const part = parts[i]!;
    if (seg.charCodeAt(0) === 58 /* : */) {
      if (part === '') return null;
      params ??= {};
      try {
        params[seg.slice(1)] = decodeURIComponent(part);
      } catch {
        throw new HttpError(400, 'Malformed URI component');
      }
    } else if (seg !== part) return null;
  }
  return params ?? {};
}
