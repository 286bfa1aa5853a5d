/**
 * Combining the `keep` prunings of several profiles (parallel reading, `--jobs`): each pruned copy
 * is the original value with some object keys removed, so their union is again a pruned copy that
 * holds everything any of them reads. Key order follows the original value.
 */
import type { Profile } from './types.js';

function isPlain(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function put(o: Record<string, unknown>, k: string, v: unknown): void {
  // A key named __proto__ must stay an own data property.
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** Union of two pruned copies `a`, `b` of `orig` (undefined: nothing kept). */
export function unionPruned(orig: unknown, a: unknown, b: unknown): unknown {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (!isPlain(orig) || !isPlain(a) || !isPlain(b)) return orig;
  if (a === orig || b === orig) return orig;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(orig)) {
    const ha = Object.prototype.hasOwnProperty.call(a, k);
    const hb = Object.prototype.hasOwnProperty.call(b, k);
    if (!ha && !hb) continue;
    put(out, k, unionPruned(orig[k], ha ? a[k] : undefined, hb ? b[k] : undefined));
  }
  return out;
}

/** One pruning for a set of profiles; null (keep everything) unless every profile declares `keep`. */
export function combinedKeep(profiles: readonly Profile[]): ((value: unknown) => unknown) | null {
  const keeps = profiles.map((p) => p.keep?.bind(p));
  if (keeps.length === 0 || keeps.some((k) => k === undefined)) return null;
  if (keeps.length === 1) return keeps[0]!;
  return (v) => {
    let acc: unknown = undefined;
    for (const k of keeps) acc = unionPruned(v, acc, k!(v));
    return acc;
  };
}

/** Each profile's own `keep`, by profile name (the reader prunes a line a classify rule gave to one profile). */
export function profileKeeps(profiles: readonly Profile[]): Map<string, (value: unknown) => unknown> {
  const m = new Map<string, (value: unknown) => unknown>();
  for (const p of profiles) if (p.keep) m.set(p.name, p.keep.bind(p));
  return m;
}
