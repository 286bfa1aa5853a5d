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
  return text.replace(RISKY, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** An array or a plain object without `toJSON`: what the pieces walk (anything else is stringified whole). */
function walkable(v: unknown): v is object {
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return true;
  const proto: unknown = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

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
export function* safeJsonPieces(value: unknown, depth = 0): Generator<string> {
  if (depth >= PIECE_DEPTH || !walkable(value)) {
    const text = JSON.stringify(value, null, 2);
    yield escapeRisky(depth > 0 && text.includes('\n') ? text.replaceAll('\n', `\n${'  '.repeat(depth)}`) : text);
    return;
  }
  const pad = '  '.repeat(depth + 1);
  if (Array.isArray(value)) {
    if (value.length === 0) return yield '[]';
    for (let i = 0; i < value.length; i++) {
      yield i === 0 ? `[\n${pad}` : `,\n${pad}`;
      const v: unknown = value[i];
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') yield 'null';
      else yield* safeJsonPieces(v, depth + 1);
    }
  } else {
    const o = value as Record<string, unknown>;
    let n = 0;
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      yield `${n++ === 0 ? '{' : ','}\n${pad}${escapeRisky(JSON.stringify(k))}: `;
      yield* safeJsonPieces(v, depth + 1);
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
