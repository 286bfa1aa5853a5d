/**
 * The classifier's fast path (input/classify.ts) against `--validate-all` (every line parsed):
 * the same report on lines with adversarial key orders, the kind far from the start or nested
 * below it, decoy strings holding `"event":"llm:request"`, escaped quotes and keys, non-ASCII,
 * and a kind key twice at top level (read as JSON.parse reads it, the last one, in both modes).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { writeCapture } from './helpers.js';
import { fcParams, FUZZ_RUNS } from './hostile-gen.js';
import { FALLBACK, LineClassifier, PARSE, SCAN_BUDGET, SKIP } from '../src/input/classify.js';

const FAMILY = ['llm:request', 'llm:response', 'provider:error', 'provider:retry', 'provider:throttle'];
const DECOYS = ['llm:request:debug', 'content_block:delta', 'llm:requestx', 'LLM:request', '', 'provider', 'prompt:submit', 'llm:réponse', 'tool:post'];

/** A JSON string literal, with some characters written as escapes. */
function lit(s: string, escape: boolean): string {
  const j = JSON.stringify(s);
  if (!escape) return j;
  return j.replace(/[a-z:]/, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const textArb = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '{"event":"llm:request"}',
    '"event": "llm:response"',
    '\\"event\\":\\"llm:request\\"',
    'café “quoted” 東京 λ',
    'a "quoted" \\ backslash',
    '}{][,:',
  ),
);

const memberArb = fc.oneof(
  fc.record({ k: fc.constantFrom('ts', 'lvl', 'session_id', 'request_id', 'x', 'naïve', 'ev\u00e9nt', 'Event'), v: fc.oneof(textArb, fc.integer(), fc.constant(null)) }),
  fc.record({ k: fc.constant('schema'), v: fc.oneof(fc.constant({ name: 'amplifier.log', ver: '1.0.0' }), fc.constantFrom('assay.enforcement_decision.v0', 'other', 'assay.x')) }),
  fc.record({ k: fc.constant('data'), v: fc.record({ provider: fc.constantFrom('anthropic', 'openai'), event: fc.constantFrom(...FAMILY), text: textArb }) }),
  fc.record({ k: fc.constant('pad'), v: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: 300 }) }, { weight: 1, arbitrary: fc.constant(SCAN_BUDGET + 10) }).map((n) => 'p'.repeat(n)) }),
  fc.record({ k: fc.constant('method'), v: fc.constantFrom('tools/call', 'tools/list') }),
);

const lineArb = fc.record({
  before: fc.array(memberArb, { maxLength: 4 }),
  after: fc.array(memberArb, { maxLength: 3 }),
  event: fc.option(fc.oneof(fc.constantFrom(...FAMILY, ...DECOYS), fc.integer(), fc.constant(null)), { freq: 5 }),
  escapeKey: fc.boolean(),
  escapeValue: fc.boolean(),
  spaces: fc.constantFrom('', ' ', '\t', '  '),
  session: fc.integer({ min: 0, max: 2 }),
});

type Line = typeof lineArb extends fc.Arbitrary<infer T> ? T : never;

function render(l: Line, twice: string | null = null): string {
  const sp = l.spaces;
  const seen = new Set<string>();
  const parts: string[] = [];
  const member = (k: string, v: unknown) => {
    if (seen.has(k)) return; // no accidental repeats (those are the second property)
    seen.add(k);
    parts.push(`${JSON.stringify(k)}${sp}:${sp}${JSON.stringify(v)}`);
  };
  for (const m of l.before) member(m.k, m.v);
  member('session_id', `s${l.session}`);
  if (l.event !== null) {
    seen.add('event');
    const v = typeof l.event === 'string' ? lit(l.event, l.escapeValue) : JSON.stringify(l.event);
    parts.push(`${l.escapeKey ? '"\\u0065vent"' : '"event"'}${sp}:${sp}${v}`);
    if (twice !== null) parts.push(`"event":${JSON.stringify(twice)}`);
  }
  for (const m of l.after) member(m.k, m.v);
  return `{${sp}${parts.join(`,${sp}`)}${sp}}`;
}

async function reports(lines: string[]) {
  const file = writeCapture(lines);
  const fast = await analyze({ inputs: [file], maxFindings: 100_000 });
  const all = await analyze({ inputs: [file], maxFindings: 100_000, validateAll: true });
  // `run` echoes the option itself (what `merge` requires equal), `unparsed` counts the lines it
  // parses that the fast path skipped; everything else must match.
  const skipped = (r: typeof fast) => ({ ...r, inputs: r.inputs.map((i) => ({ ...i, unparsed: 0 })), totals: { ...r.totals, unparsed: 0 } });
  return { fast: skipped(fast), all: skipped({ ...all, run: all.run && { ...all.run, validateAll: false } }) };
}

describe('classifier fast path vs --validate-all', () => {
  it('gives the same report on adversarial lines', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { minLength: 1, maxLength: 30 }), async (ls) => {
        const { fast, all } = await reports(ls.map((l) => render(l)));
        expect(fast).toEqual(all);
      }),
      fcParams(Math.max(60, FUZZ_RUNS)),
    );
  });

  it('a line with a repeated kind key gives the same report in both modes, with no finding', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(lineArb, fc.option(fc.constantFrom(...FAMILY, ...DECOYS), { freq: 2 })), { minLength: 1, maxLength: 20 }),
        async (ls) => {
          const lines = ls.map(([l, twice]) => render({ ...l, event: l.event ?? 'x' }, twice));
          const { fast, all } = await reports(lines);
          expect(fast.findings.filter((f) => f.code === 'MALFORMED_LINE')).toEqual([]);
          expect(fast).toEqual(all);
        },
      ),
      fcParams(Math.max(40, FUZZ_RUNS)),
    );
  });
});

describe('LineClassifier', () => {
  const amp = new LineClassifier([{ key: 'event', values: FAMILY, other: 'ignored', absent: 'unclaimed' }]);
  const v = (s: string) => amp.verdict(Buffer.from(s), 0, Buffer.byteLength(s));
  it('reads the kind after other keys, objects and escaped strings', () => {
    expect(v('{"ts": "t", "schema": {"a": ["}", "\\""]}, "event": "llm:request", "data": {}}')).toBe(PARSE);
    expect(v('{"ts": "t", "event": "content_block:delta", "data": {"x": "\\"event\\": \\"llm:request\\""}}')).toBe(SKIP);
    expect(v('{"data": {"event": "llm:request"}}')).toBe(SKIP);
    expect(v('{}')).toBe(SKIP);
  });
  it('decodes escapes in keys and the value; falls back on non-objects and keys beyond the budget', () => {
    expect(v('{"\\u0065vent": "content"}')).toBe(SKIP);
    expect(v('{"\\u0065vent": "llm:request"}')).toBe(PARSE);
    expect(v('{"event": "llm\\u003arequest"}')).toBe(PARSE);
    expect(v('{"event": "llm\\u003arequest\\u0022"}')).toBe(SKIP);
    expect(v('{"event": "llm\\x"}')).toBe(FALLBACK);
    expect(v('["event", "llm:request"]')).toBe(FALLBACK);
    expect(v(`{"pad": "${'x'.repeat(SCAN_BUDGET)}", "event": "content"}`)).toBe(FALLBACK);
    expect(v('{"event": "content"} trailing')).toBe(SKIP); // decided at the key: like any needle-less line
    expect(v('{"a": 1} x')).toBe(FALLBACK);
  });
});
