/**
 * The JSON report written in pieces: the same bytes as `safeJson(value, 2)` (src/formatters/json.ts),
 * without ever holding the whole text — a merged report of 10 000 shards lists every scope, and its
 * text would double the memory the merge needs (docs/scale-out.md).
 */
import { safeJson } from '../formatters/json.js';

/** Containers this deep or shallower are written piece by piece; deeper ones in one stringify. */
const DESCEND = 3;

export function* jsonChunks(value: unknown, indent = '', depth = 0): Generator<string> {
  if (depth <= DESCEND && value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    const inner = `${indent}  `;
    if (Array.isArray(value)) {
      if (value.length === 0) {
        yield '[]';
        return;
      }
      yield '[\n';
      for (let i = 0; i < value.length; i++) {
        yield inner;
        const v = value[i];
        if (v === undefined || typeof v === 'function' || typeof v === 'symbol') yield 'null';
        else yield* jsonChunks(v, inner, depth + 1);
        yield i < value.length - 1 ? ',\n' : '\n';
      }
      yield `${indent}]`;
      return;
    }
    const keys = Object.keys(value).filter((k) => {
      const v = (value as Record<string, unknown>)[k];
      return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
    });
    if (keys.length === 0) {
      yield '{}';
      return;
    }
    yield '{\n';
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      yield `${inner}${safeJson(k)}: `;
      yield* jsonChunks((value as Record<string, unknown>)[k], inner, depth + 1);
      yield i < keys.length - 1 ? ',\n' : '\n';
    }
    yield `${indent}}`;
    return;
  }
  const text = safeJson(value, 2);
  yield indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
}

/** Writes `safeJson(value, 2) + '\n'` to a stream in ~64 KB writes, waiting for drain. */
export async function writeJsonStream(value: unknown, out: NodeJS.WritableStream): Promise<void> {
  let buf = '';
  for (const c of jsonChunks(value)) {
    buf += c;
    if (buf.length >= 65536) {
      const ok = out.write(buf);
      buf = '';
      if (!ok) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  }
  out.write(`${buf}\n`);
}
