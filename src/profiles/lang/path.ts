/**
 * The path language of profiles (docs/profiles.md, "Paths").
 *
 * A path is written either as a string or as an array of segments:
 * - string: keys separated by dots, `[]` after a key for "every element of this array", `[N]` for
 *   one element: `data.session_id`, `records[].record`, `resourceSpans[].scopeSpans[].spans[]`,
 *   `choices[0].message`. A key holding a dot, a bracket or a backslash is written in the array
 *   form (or with a backslash escape: `attributes.gen_ai\.operation\.name`).
 * - array: each item a key (a string, taken literally, dots and all), a whole number (an array
 *   index), or `[]` (every element): `["attributes", "gen_ai.operation.name"]`,
 *   `["records", [], "record"]`.
 *
 * Only own properties are read (never `constructor`, `__proto__` from the prototype).
 */

/** `root`: the top of the JSON value the record was found in (a line, a document): `$.sessionId`. */
export type Segment = { key: string } | { index: number } | { each: true } | { root: true };
export type Path = readonly Segment[];

/** A profile field that cannot be used: names the field and what was expected. */
export class PathError extends Error {
  override name = 'PathError';
}

const MAX_SEGMENTS = 64;

function parseString(s: string, field: string): Segment[] {
  const out: Segment[] = [];
  // `$` alone or `$.` first: the top of the value the records sit in (a key `$` is written `\\$`).
  if (s === '$' || s.startsWith('$.')) {
    out.push({ root: true });
    if (s === '$') return out;
    s = s.slice(2);
    if (s === '') throw new PathError(`${field}: an empty key in path "$."`);
  }
  let key = '';
  let keyStarted = false;
  const bad = (why: string) => new PathError(`${field}: ${why} in path ${JSON.stringify(s.slice(0, 80))}`);
  const flush = () => {
    if (keyStarted) out.push({ key });
    key = '';
    keyStarted = false;
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\') {
      const n = s[i + 1];
      if (n === undefined) throw bad('a trailing backslash');
      key += n;
      keyStarted = true;
      i++;
    } else if (c === '.') {
      if (!keyStarted && (out.length === 0 || s[i - 1] === '.')) throw bad('an empty key');
      flush();
    } else if (c === '[') {
      flush();
      const close = s.indexOf(']', i);
      if (close === -1) throw bad('an unclosed [');
      const inner = s.slice(i + 1, close);
      if (inner === '') out.push({ each: true });
      else if (/^\d{1,9}$/.test(inner)) out.push({ index: Number(inner) });
      else throw bad(`[${inner.slice(0, 20)}] (expected [] or [N])`);
      i = close;
      if (s[i + 1] !== undefined && s[i + 1] !== '.' && s[i + 1] !== '[') throw bad('a key right after ]');
    } else {
      key += c;
      keyStarted = true;
    }
  }
  if (s.endsWith('.')) throw bad('an empty key');
  flush();
  return out;
}

/**
 * Parses a path written in a profile. `field` names the profile field (for the one-line error).
 * Throws PathError when `v` is neither form.
 */
export function parsePath(v: unknown, field: string): Path {
  let out: Segment[];
  if (typeof v === 'string') {
    if (v.length === 0) throw new PathError(`${field}: expected a path, got an empty string`);
    out = parseString(v, field);
  } else if (Array.isArray(v)) {
    out = v.map((k, i) => {
      if (typeof k === 'string') return { key: k };
      if (typeof k === 'number' && Number.isInteger(k) && k >= 0) return { index: k };
      if (Array.isArray(k) && k.length === 0) return { each: true as const };
      throw new PathError(`${field}[${i}]: expected a key (string), an index (whole number) or [] (every element), got ${JSON.stringify(k)?.slice(0, 40) ?? typeof k}`);
    });
  } else {
    throw new PathError(`${field}: expected a path (a string like "a.b[].c" or an array of keys), got ${v === null ? 'null' : typeof v}`);
  }
  if (out.length === 0) throw new PathError(`${field}: expected a path with at least one key`);
  if (out.length > MAX_SEGMENTS) throw new PathError(`${field}: a path of at most ${MAX_SEGMENTS} segments`);
  return out;
}

/** Whether the path has an `[]` segment (reads many values). */
export function isMulti(p: Path): boolean {
  return p.some((s) => 'each' in s);
}

/** How a path is shown in messages and reports: the string form, escaped where needed. */
export function formatPath(p: Path): string {
  let s = '';
  for (const seg of p) {
    if ('each' in seg) s += '[]';
    else if ('index' in seg) s += `[${seg.index}]`;
    else if ('root' in seg) s += '$';
    else s += (s === '' ? '' : '.') + seg.key.replace(/[\\.[\]]/g, (c) => `\\${c}`);
  }
  return s;
}

function own(o: unknown, k: string): unknown {
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return undefined;
  return Object.prototype.hasOwnProperty.call(o, k) ? (o as Record<string, unknown>)[k] : undefined;
}

/**
 * The value at a path; with `[]` segments, the first value found. Missing: undefined. `root` is
 * the value the record was found in (`$.` paths read from it; without one, from the record).
 */
export function getPath(v: unknown, p: Path, root: unknown = v): unknown {
  for (const x of eachAt(v, p, 0, root)) return x;
  return undefined;
}

/** Every value at a path (a path without `[]` gives at most one), in document order. */
export function* eachAt(v: unknown, p: Path, from = 0, root: unknown = v): Generator<unknown> {
  let cur: unknown = v;
  for (let i = from; i < p.length; i++) {
    const seg = p[i]!;
    if ('root' in seg) cur = root;
    else if ('key' in seg) cur = own(cur, seg.key);
    else if ('index' in seg) cur = Array.isArray(cur) ? cur[seg.index] : undefined;
    else {
      if (!Array.isArray(cur)) return;
      for (const el of cur) yield* eachAt(el, p, i + 1, root);
      return;
    }
    if (cur === undefined) return;
  }
  yield cur;
}

/** Whether the path leads to a present value (`null` counts as present: the key is there). */
export function hasPath(v: unknown, p: Path): boolean {
  return getPath(v, p) !== undefined;
}

/** The last key of a path, if it ends with one (needles are derived from it). */
export function lastKey(p: Path): string | null {
  const seg = p[p.length - 1];
  return seg && 'key' in seg ? seg.key : null;
}

/** A record found at a `records` path, with its JSON pointer (RFC 6901) inside the value. */
export interface Located {
  value: unknown;
  pointer: string;
}

const escapePointer = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every value at a path with its JSON pointer, in document order (as `eachAt`; `$` is not allowed). */
export function* eachLocated(v: unknown, p: Path, from = 0, ptr = ''): Generator<Located> {
  let cur: unknown = v;
  for (let i = from; i < p.length; i++) {
    const seg = p[i]!;
    if ('root' in seg) return;
    if ('key' in seg) {
      cur = own(cur, seg.key);
      ptr += `/${escapePointer(seg.key)}`;
    } else if ('index' in seg) {
      cur = Array.isArray(cur) ? cur[seg.index] : undefined;
      ptr += `/${seg.index}`;
    } else {
      if (!Array.isArray(cur)) return;
      for (let j = 0; j < cur.length; j++) yield* eachLocated(cur[j], p, i + 1, `${ptr}/${j}`);
      return;
    }
    if (cur === undefined) return;
  }
  yield { value: cur, pointer: ptr };
}
