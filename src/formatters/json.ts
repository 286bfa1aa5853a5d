/**
 * `callpair.report.v1` as JSON: deterministic (the report holds no wall-clock time and every list
 * is in a fixed order), two-space indented. Characters that JSON allows raw but terminals and
 * browsers act on (C1 controls, bidi overrides, line/paragraph separators) are written escaped.
 */
import type { Formatter } from './types.js';

const RISKY = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function safeJson(value: unknown, indent?: number): string {
  return escapeRisky(JSON.stringify(value, null, indent));
}

function escapeRisky(text: string): string {
  // Text whose every character is one UTF-8 byte is ASCII: of the risky characters it can hold only
  // U+007F. Two native scans instead of the regex's (most reports are ASCII).
  if (Buffer.byteLength(text, 'utf8') === text.length && !text.includes('\u007f')) return text;
  return text.replace(RISKY, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * What the pieces walk: arrays, the top object, and plain objects (without `toJSON`) that hold a
 * long array (a channel's scopes); anything else is one `JSON.stringify` (a finding, a scope).
 */
function walkable(v: unknown, depth: number): v is object {
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return true;
  const proto: unknown = Object.getPrototypeOf(v);
  if ((proto !== Object.prototype && proto !== null) || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  return depth === 0 || Object.values(v).some((x) => Array.isArray(x) && x.length >= LONG_ARRAY);
}

/** Elements stringified together, at most. */
const RUN = 64;

/**
 * `JSON.stringify(value, null, 2)` as written `depth` levels down (every line break indented by as
 * many levels): the value is stringified inside `depth` one-element arrays, so JSON.stringify
 * indents it itself, and the wrappers' brackets are cut off (no second pass over the text).
 */
function nested(value: unknown, depth: number): string {
  if (depth === 0) return JSON.stringify(value, null, 2);
  let w: unknown = value;
  for (let k = 0; k < depth; k++) w = [w];
  const text = JSON.stringify(w, null, 2);
  const [head, tail] = wrapperEdges(depth);
  return text.slice(head, text.length - tail);
}

/** Lengths of what `depth` one-element arrays put before and after their element's text. */
function wrapperEdges(depth: number): readonly [number, number] {
  let e = EDGES[depth];
  if (e === undefined) {
    // Level k opens with its indent, "[" and a newline; the element sits at 2 × depth spaces; each
    // level closes with a newline, its indent and "]".
    let head = 2 * depth;
    let tail = 0;
    for (let k = 0; k < depth; k++) {
      head += 2 * k + 2;
      tail += 1 + 2 * k + 1;
    }
    EDGES[depth] = e = [head, tail];
  }
  return e;
}
const EDGES: Array<readonly [number, number]> = [];

/** An array this long is written element by element. */
const LONG_ARRAY = 32;

/** Levels of arrays and objects written piece by piece; below them, one `JSON.stringify` each. */
const PIECE_DEPTH = 4;

/**
 * `safeJson(value, 2)` in pieces, the same text to the byte: a report of many scopes is megabytes
 * of JSON, and writing it piece by piece never holds all of it as one string (docs/performance.md,
 * "Memory"). The upper levels are walked as `JSON.stringify` would (keys in `Object.keys` order;
 * `undefined`, functions and symbols left out of objects and written `null` in arrays; anything
 * with a `toJSON` handed to `JSON.stringify` whole); deeper values are stringified and re-indented
 * (JSON text holds no raw newline inside a string, so every newline is a line break).
 */
export function* safeJsonPieces(value: unknown): Generator<string> {
  // Escaped in batches: the escaping is per character, so a batch escapes as its pieces would.
  let batch: string[] = [];
  let n = 0;
  for (const p of rawPieces(value, 0)) {
    batch.push(p);
    n += p.length;
    if (n >= PIECE_BATCH) {
      yield escapeRisky(batch.join(''));
      batch = [];
      n = 0;
    }
  }
  if (n > 0) yield escapeRisky(batch.join(''));
}

/** Characters of JSON text escaped and handed on at a time. */
const PIECE_BATCH = 1 << 16;

/** `JSON.stringify(value, null, 2)` in pieces, indented for `depth` (the walk of `safeJsonPieces`). */
function* rawPieces(value: unknown, depth: number): Generator<string> {
  if (depth >= PIECE_DEPTH || !walkable(value, depth)) {
    return yield nested(value, depth);
  }
  const pad = '  '.repeat(depth + 1);
  if (Array.isArray(value)) {
    if (value.length === 0) return yield '[]';
    const deeper = (v: unknown) => depth + 1 < PIECE_DEPTH && walkable(v, depth + 1);
    for (let i = 0; i < value.length; ) {
      const lead = i === 0 ? `[\n${pad}` : `,\n${pad}`;
      if (deeper(value[i])) {
        yield lead;
        yield* rawPieces(value[i], depth + 1);
        i++;
        continue;
      }
      // A run of elements not walked (scopes, findings): one JSON.stringify of the run as written
      // at this depth, its brackets taken off (the first element's indent, which `lead` holds, and
      // the newline, indent and "]" after the last); `undefined` and the like are `null` in it.
      let j = i + 1;
      while (j < value.length && j - i < RUN && !deeper(value[j])) j++;
      const text = nested(value.slice(i, j), depth);
      yield lead + text.slice(2 + 2 * (depth + 1), text.length - 2 - 2 * depth);
      i = j;
    }
  } else {
    const o = value as Record<string, unknown>;
    let n = 0;
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      yield `${n++ === 0 ? '{' : ','}\n${pad}${JSON.stringify(k)}: `;
      yield* rawPieces(v, depth + 1);
    }
    if (n === 0) return yield '{}';
  }
  yield `\n${'  '.repeat(depth)}${Array.isArray(value) ? ']' : '}'}`;
}

export const json: Formatter = {
  name: 'json',
  description: 'the full report, callpair.report.v1',
  extension: 'json',
  render: (report) => `${safeJson(report, 2)}\n`,
  *pieces(report) {
    yield* safeJsonPieces(report);
    yield '\n';
  },
};
