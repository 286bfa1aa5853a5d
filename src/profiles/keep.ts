/**
 * What a profile reads of a record, as plain data (`Profile.keep`), so that parallel reading
 * (`--jobs`) can prune values in a worker without building any profile: the workers receive the
 * union of the profiles' `KeepSpec`s (it is serialisable) and apply it with `applyKeep`.
 *
 * Pruning removes object keys no profile reads (at any depth); arrays and other values are kept
 * whole, and a value whose tree node is not an object is kept whole. `record(applyKeep(s, v))` must
 * behave exactly as `record(v)`. Key order follows the original value.
 */
import { append } from '../arrays.js';

/** Keys read of an object: `true` keeps the value whole; a subtree prunes a nested object. */
export type KeepTree = { readonly [key: string]: true | KeepTree };

/** What these functions read of a Profile (src/profiles/types.ts), named here so that this module imports no profile type. */
type KeepHolder = { readonly name: string; readonly keep?: KeepSpec };

export interface KeepSpec {
  tree: KeepTree;
  /** A record whose `key` holds a string starting with one of `prefixes` is kept whole. */
  whole?: ReadonlyArray<{ key: string; prefixes: readonly string[] }>;
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function has(o: object, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

function put(o: Record<string, unknown>, k: string, v: unknown): void {
  // A key named __proto__ must stay an own data property (the only accessor Object.prototype has;
  // any other key assigned to a fresh object becomes one, and much faster than defineProperty).
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

function prune(tree: KeepTree, v: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // for…in, not Object.keys: no array of keys per object (the same keys, in the same order, for an
  // object JSON.parse made; an inherited enumerable key is passed over by the own-key test).
  for (const k in v) {
    if (!has(tree, k) || !has(v, k)) continue;
    const node = tree[k]!;
    const x = v[k];
    put(out, k, node === true || !isPlain(x) ? x : prune(node, x));
  }
  return out;
}

/** The pruned copy of `value` under `spec`. */
export function applyKeep(spec: KeepSpec, value: unknown): unknown {
  if (!isPlain(value)) return value;
  for (const w of spec.whole ?? []) {
    const s = has(value, w.key) ? value[w.key] : undefined;
    if (typeof s === 'string' && w.prefixes.some((p) => s.startsWith(p))) return value;
  }
  return prune(spec.tree, value);
}

function mergeTree(a: KeepTree, b: KeepTree): KeepTree {
  const out: Record<string, true | KeepTree> = {};
  for (const k of Object.keys(a)) put(out, k, a[k]!);
  for (const k of Object.keys(b)) {
    const x = has(out, k) ? out[k]! : undefined;
    const y = b[k]!;
    put(out, k, x === undefined ? y : x === true || y === true ? true : mergeTree(x, y));
  }
  return out;
}

/** Union of several specs: what any of them reads is kept. */
export function unionKeep(specs: readonly KeepSpec[]): KeepSpec {
  let tree: KeepTree = {};
  const whole: Array<{ key: string; prefixes: readonly string[] }> = [];
  for (const s of specs) {
    tree = mergeTree(tree, s.tree);
    append(whole, s.whole ?? []);
  }
  return whole.length > 0 ? { tree, whole } : { tree };
}

/** One spec for a set of profiles; null (keep everything) unless every profile declares `keep`. */
export function combinedKeep(profiles: readonly KeepHolder[]): KeepSpec | null {
  if (profiles.length === 0 || profiles.some((p) => p.keep === undefined)) return null;
  return unionKeep(profiles.map((p) => p.keep!));
}

/**
 * A pruning function; `asciiKeys` false when its spec names a non-ASCII key or prefix (then a line
 * must be pruned from its UTF-8 reading: lines.ts parseKept).
 */
export type KeepFunction = ((value: unknown) => unknown) & { readonly asciiKeys?: boolean };

const NON_ASCII = /[^\u0000-\u007f]/;

function treeIsAscii(tree: KeepTree): boolean {
  for (const k of Object.keys(tree)) {
    if (NON_ASCII.test(k)) return false;
    const n = tree[k]!;
    if (n !== true && !treeIsAscii(n)) return false;
  }
  return true;
}

/** Whether every key and prefix a spec names is ASCII. */
export function keepIsAscii(spec: KeepSpec): boolean {
  return treeIsAscii(spec.tree) && (spec.whole ?? []).every((w) => !NON_ASCII.test(w.key) && w.prefixes.every((p) => !NON_ASCII.test(p)));
}

function pruner(spec: KeepSpec): KeepFunction {
  return Object.assign((v: unknown) => applyKeep(spec, v), { asciiKeys: keepIsAscii(spec) });
}

/** The pruning function of a spec (null: keep everything). */
export function keepFunction(spec: KeepSpec | null): KeepFunction | null {
  return spec === null ? null : pruner(spec);
}

/** Each profile's own `keep` spec, by profile name (the reader prunes a line a classify rule gave to one profile). */
export function profileKeeps(profiles: readonly KeepHolder[]): Record<string, KeepSpec> {
  const m: Record<string, KeepSpec> = {};
  for (const p of profiles) if (p.keep) m[p.name] = p.keep;
  return m;
}

/** The pruning functions of `profileKeeps`. */
export function keepFunctions(specs: Readonly<Record<string, KeepSpec>>): Map<string, KeepFunction> {
  return new Map(Object.entries(specs).map(([name, spec]) => [name, pruner(spec)]));
}
