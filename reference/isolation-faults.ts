// Faults that let one environment reach another's resources of one kind (AUTH-05): the environment a request works
// on sees, changes and deletes the other environments' entries of that kind as if they were its own.
import type { App } from './context.ts';
import type { FaultName } from './faults.ts';
import type { EnvironmentState } from './store.ts';

type Kind = 'layouts' | 'integrations' | 'agents' | 'links';

const LEAKS: [FaultName, Kind[]][] = [
  ['cross-environment-layouts', ['layouts']],
  ['cross-environment-integrations', ['integrations']],
  ['cross-environment-agent-links', ['agents', 'links']],
];

/** The environment a request works on: itself, unless a fault opens one of its kinds to the other environments. */
export function environmentSeenBy(app: App, own: EnvironmentState): EnvironmentState {
  const kinds = LEAKS.filter(([fault]) => app.has(fault)).flatMap(([, k]) => k);
  if (kinds.length === 0) return own;
  const view = Object.create(own) as EnvironmentState;
  const others = app.org.environments.filter((e) => e !== own);
  for (const kind of kinds) Object.defineProperty(view, kind, { value: mergedMap(own[kind] as Map<string, unknown>, others.map((e) => e[kind] as Map<string, unknown>)) });
  return view;
}

/** A map that writes to the own environment and finds, lists and deletes across all of them. */
function mergedMap<V>(own: Map<string, V>, others: Map<string, V>[]): Map<string, V> {
  const all = [own, ...others];
  const merged = new Map<string, V>(own);
  merged.get = (k) => all.find((m) => m.has(k))?.get(k);
  merged.has = (k) => all.some((m) => m.has(k));
  merged.set = (k, v) => (own.set(k, v), merged);
  merged.delete = (k) => all.map((m) => m.delete(k)).some(Boolean);
  merged.values = () => all.flatMap((m) => [...m.values()])[Symbol.iterator]();
  merged.entries = () => all.flatMap((m) => [...m.entries()])[Symbol.iterator]();
  merged[Symbol.iterator] = merged.entries;
  return merged;
}
