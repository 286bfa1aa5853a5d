/**
 * Generators of hostile input for the fuzz suite (test/fuzz.test.ts) and the hostile-strings
 * checks (test/hostile.test.ts). Nothing here reads /work/shared: real lines come from fixtures/.
 */
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { chunksOf, fixture } from './helpers.js';

/** How many runs each property makes: `FUZZ_RUNS` (npm run fuzz) or a small default for npm test. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 40);
/** Per-property time limit in ms (fast-check stops early, the runs made still count). */
export const FUZZ_TIME_MS = Number(process.env.FUZZ_TIME_MS ?? 2500);
/** Vitest timeout for a fuzz test: room for a property that runs to its time limit (the CLI one to 4×). */
export const FUZZ_TEST_TIMEOUT = FUZZ_TIME_MS * 5 + 60_000;
/** A fixed seed unless FUZZ_SEED is set (so `npm test` is reproducible; `npm run fuzz` explores). */
export const FUZZ_SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : process.env.FUZZ_RUNS ? undefined : 424242;

export function fcParams(runs = FUZZ_RUNS, timeMs = FUZZ_TIME_MS): fc.Parameters<unknown> {
  return { numRuns: runs, interruptAfterTimeLimit: timeMs, markInterruptAsFailure: false, ...(FUZZ_SEED === undefined ? {} : { seed: FUZZ_SEED }) };
}

/** Real lines: the seed trace plus a few families the profile treats specially. */
export const REAL_LINES: string[] = [
  ...readFileSync(fixture('seed-trace.jsonl'), 'utf8').split('\n').filter((l) => l.length > 0),
  '{"event":"provider:error","timestamp":"2026-09-01T00:00:01.5Z","session_id":"S2","data":{"provider":"anthropic","error":{"type":"RateLimit","msg":"slow down"}}}',
  '{"event":"provider:retry","ts":"2026-09-01T00:00:01Z","session_id":"S2","request_id":"r-9","data":{"provider":"anthropic"}}',
  '{"event":"llm:response","ts":"2026-09-01T00:00:02Z","session_id":"S2","status":"error","data":{"provider":"anthropic","usage":{"input":1,"output":2}}}',
  '{"event":"llm:request:debug","ts":"2026-09-01T00:00:02Z","session_id":"S2","request_id":"x"}',
  '{"event":"tool:pre","ts":"2026-09-01T00:00:02Z","session_id":"S2"}',
];

/** Pieces that attack a terminal, a browser, a parser or a plain-object map. */
export const HOSTILE_PIECES = [
  '\u001b[31mRED\u001b[0m',
  '\u001b[2J\u001b[H',
  '\u001b]0;pwned title\u0007',
  '\u001b]8;;https://evil.example/\u001b\\link\u001b]8;;\u001b\\',
  '\u009b31m',
  '\u009d0;c1 title\u009c',
  '\u0000\u0001\u0007\u0008\u000b\u000c\u000d\u001f\u007f',
  '\u0085\u008d\u0090\u009f',
  '\u202e\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u061c\u200e\u200f',
  '\u2028\u2029',
  '\ud800',
  '\udfff',
  'a\udc00b',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  '<script>alert(1)</script>',
  '</textarea><img src=x onerror=alert(1)>',
  '"quoted" & \'apos\'',
  '${{ secrets.TOKEN }}',
  '::error file=x::injected',
  '%0A::warning::x',
  '\n::error::newline injection',
  '|pipe|',
  ']]>',
  '\\',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_PIECES),
  fc.array(fc.oneof(fc.constantFrom(...HOSTILE_PIECES), fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), fc.string()), { maxLength: 8 }).map((a) => a.join('')),
  fc.integer({ min: 200, max: 5000 }).map((n) => `long${'\u001b[1m'.repeat(3)}${'x'.repeat(n)}`),
);

/** Anything a capture might put where an id belongs. */
export const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(''),
  fc.object({ maxDepth: 2 }),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.integer({ min: 129, max: 20_000 }).map((n) => 'A'.repeat(n)),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/),
);

const EVENTS = ['llm:request', 'llm:response', 'provider:error', 'provider:retry', 'provider:throttle', 'llm:request:debug', 'session:start'];

/** An amplifier-shaped record whose every field may be hostile. */
export const eventRecord: fc.Arbitrary<Record<string, unknown>> = fc
  .record(
    {
      event: fc.oneof(fc.constantFrom(...EVENTS), hostileString),
      session_id: fc.oneof(fc.constantFrom('S1', 'S2', '__proto__', 'constructor'), weirdValue),
      request_id: fc.oneof(fc.constantFrom('r1', 'r2', 'r3'), weirdValue),
      ts: fc.oneof(fc.constant('2026-09-01T00:00:00Z'), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), weirdValue),
      status: fc.oneof(fc.constantFrom('ok', 'error', 'cancelled'), weirdValue),
      data: fc.record(
        {
          provider: fc.oneof(fc.constantFrom('anthropic', 'openai'), weirdValue),
          model: weirdValue,
          caller: weirdValue,
          purpose: weirdValue,
          usage: fc.oneof(fc.constant({ input_tokens: 1, output_tokens: 2 }), weirdValue),
          error: weirdValue,
          timestamp: weirdValue,
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ['event'] },
  );

/** One edit of a list of lines. */
export type Mutation =
  | { op: 'cut'; i: number; at: number }
  | { op: 'dup'; i: number }
  | { op: 'swap'; i: number; j: number }
  | { op: 'flip'; i: number; at: number; byte: number }
  | { op: 'rename'; i: number; from: string; to: string }
  | { op: 'setField'; i: number; key: string; value: unknown }
  | { op: 'insert'; i: number; line: string }
  | { op: 'drop'; i: number };

const KEYS = ['request_id', 'session_id', 'event', 'data', 'provider', 'model', 'caller', 'ts', 'status', 'timestamp'];

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('cut' as const), i: fc.nat(), at: fc.nat() }),
  fc.record({ op: fc.constant('dup' as const), i: fc.nat() }),
  fc.record({ op: fc.constant('swap' as const), i: fc.nat(), j: fc.nat() }),
  fc.record({ op: fc.constant('flip' as const), i: fc.nat(), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ op: fc.constant('rename' as const), i: fc.nat(), from: fc.constantFrom(...KEYS), to: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'request_idx', ''), fc.string({ maxLength: 6 })) }),
  fc.record({ op: fc.constant('setField' as const), i: fc.nat(), key: fc.constantFrom(...KEYS, '__proto__', 'constructor'), value: weirdValue }),
  fc.record({
    op: fc.constant('insert' as const),
    i: fc.nat(),
    line: fc.oneof(fc.constantFrom('', '   ', '\r', '{', '[', '}', 'null', '"llm:', '{"event":"llm:'), fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'), eventRecord.map((r) => JSON.stringify(r))),
  }),
  fc.record({ op: fc.constant('drop' as const), i: fc.nat() }),
);

/** Applies mutations to lines held as Buffers (a byte flip may make them invalid UTF-8). */
export function mutate(lines: readonly string[], muts: readonly Mutation[]): Buffer[] {
  const out = lines.map((l) => Buffer.from(l));
  for (const m of muts) {
    if (out.length === 0) {
      if (m.op === 'insert') out.push(Buffer.from(m.line));
      continue;
    }
    const i = m.i % out.length;
    const line = out[i]!;
    switch (m.op) {
      case 'cut':
        out[i] = line.subarray(0, m.at % (line.length + 1));
        break;
      case 'dup':
        out.splice(i, 0, Buffer.from(line));
        break;
      case 'swap': {
        const j = m.j % out.length;
        out[i] = out[j]!;
        out[j] = line;
        break;
      }
      case 'flip':
        if (line.length > 0) {
          const b = Buffer.from(line);
          b[m.at % b.length] = m.byte;
          out[i] = b;
        }
        break;
      case 'rename':
        out[i] = Buffer.from(line.toString('latin1').split(`"${m.from}"`).join(JSON.stringify(m.to)), 'latin1');
        break;
      case 'setField': {
        let v: unknown;
        try {
          v = JSON.parse(line.toString('utf8'));
        } catch {
          break;
        }
        if (v && typeof v === 'object' && !Array.isArray(v)) {
          const o = v as Record<string, unknown>;
          // Own property even for __proto__ (as JSON.parse would make it).
          Object.defineProperty(o, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
          if (o.data && typeof o.data === 'object' && m.key !== 'data') {
            Object.defineProperty(o.data, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
          }
          out[i] = Buffer.from(JSON.stringify(o) ?? 'null');
        }
        break;
      }
      case 'insert':
        out.splice(i, 0, Buffer.from(m.line));
        break;
      case 'drop':
        out.splice(i, 1);
        break;
    }
  }
  return out;
}

/** Joins lines with \n or \r\n, optionally without the final newline. */
export function joinLines(lines: readonly Buffer[], crlf: boolean, finalNewline: boolean): Buffer {
  const sep = Buffer.from(crlf ? '\r\n' : '\n');
  const parts: Buffer[] = [];
  lines.forEach((l, k) => {
    parts.push(l);
    if (k < lines.length - 1 || finalNewline) parts.push(sep);
  });
  return Buffer.concat(parts);
}

/** Physical lines in a byte stream: newlines, plus a last unterminated line. */
export function physicalLines(buf: Buffer): number {
  let n = 0;
  let at = buf.indexOf(0x0a);
  let last = -1;
  while (at !== -1) {
    n++;
    last = at;
    at = buf.indexOf(0x0a, at + 1);
  }
  return last === buf.length - 1 || buf.length === 0 ? n : n + 1;
}

/** A stdin stand-in that hands the bytes over in the given chunk sizes (chunk boundaries are a classic bug spot). */
export function chunkedStream(buf: Buffer, sizes: readonly number[]): Readable {
  return Readable.from(chunksOf(buf, sizes), { objectMode: false });
}

/**
 * Mixed compression: gzip members and plain bytes in any order. `zcat` semantics: the
 * leading run of gzip members is read whole; plain bytes after it are a fault (reported, never a
 * loss of what came before). A file that starts plain is plain JSONL throughout.
 */
export interface MixedSegment {
  gzip: boolean;
  lines: string[];
  level: number;
}
export const mixedSegments: fc.Arbitrary<MixedSegment[]> = fc.array(
  fc.record({ gzip: fc.boolean(), lines: fc.array(fc.constantFrom(...REAL_LINES), { maxLength: 6 }), level: fc.integer({ min: 0, max: 9 }) }),
  { minLength: 1, maxLength: 5 },
);

export function buildMixed(segs: readonly MixedSegment[]): { buf: Buffer; readLines: number; fault: boolean } {
  const parts: Buffer[] = [];
  const texts: Array<{ gzip: boolean; text: Buffer }> = [];
  for (const s of segs) {
    const text = Buffer.from(s.lines.map((l) => `${l}\n`).join(''));
    if (!s.gzip && text.length === 0) continue;
    texts.push({ gzip: s.gzip, text });
    parts.push(s.gzip ? gzipSync(text, { level: s.level }) : text);
  }
  const buf = Buffer.concat(parts);
  if (texts.length === 0 || !texts[0]!.gzip) return { buf, readLines: physicalLines(buf), fault: false };
  const lead: Buffer[] = [];
  let k = 0;
  while (k < texts.length && texts[k]!.gzip) lead.push(texts[k++]!.text);
  return { buf, readLines: physicalLines(Buffer.concat(lead)), fault: k < texts.length };
}

/**
 * Array-then-object files: a top-level array (one line, or pretty-printed) followed by
 * object lines, some of them broken. Whatever the shape, no more records than values, and a broken
 * object never drops the ones after it.
 */
export interface ArrayThenObjects {
  elems: string[];
  pretty: boolean;
  objs: Array<{ line: string; broken: boolean }>;
}
export const arrayThenObjects: fc.Arbitrary<ArrayThenObjects> = fc.record({
  elems: fc.array(fc.constantFrom(...REAL_LINES), { maxLength: 5 }),
  pretty: fc.boolean(),
  objs: fc.array(
    fc.oneof(
      fc.constantFrom(...REAL_LINES).map((line) => ({ line, broken: false })),
      fc.tuple(fc.constantFrom(...REAL_LINES), fc.nat()).map(([l, at]) => ({ line: l.slice(0, 1 + (at % Math.max(1, l.length - 2))), broken: true })),
    ),
    { maxLength: 5 },
  ),
});

export function buildArrayThenObjects(a: ArrayThenObjects): Buffer {
  const arr = a.elems.map((l) => JSON.parse(l) as unknown);
  const head = a.pretty ? JSON.stringify(arr, null, 2) : JSON.stringify(arr);
  return Buffer.from([head, ...a.objs.map((o) => o.line)].join('\n') + '\n');
}
