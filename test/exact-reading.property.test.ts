/**
 * Exact, or the exact path (docs/performance.md, docs/guarantees.md): whatever the reader decides
 * on a line's bytes, the report is the one JSON.parse's reading gives. Every profile (amplifier,
 * assay with its caller and upstream logs, jsonrpc, openai-batch, a custom profile file, and all
 * of them at once) over lines that repeat keys (the kind, method, id, tool name), spell keys and
 * values with `\u` and `\/` escapes, vary the whitespace, and put a value longer than every scan
 * budget first: the default report equals the `--validate-all` report, and both equal the report
 * of the same lines written as JSON.stringify(JSON.parse(line)) — but for the DUPLICATE_KEY
 * errors and Assay's DELIVERY_UNVERIFIED `repeated-key` that only the written repeat can give.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { SCAN_BUDGET } from '../src/input/classify.js';
import type { Report } from '../src/report/report.js';
import { fixture, tmpDir, writeCapture } from './helpers.js';
import { fcParams, FUZZ_RUNS, FUZZ_TEST_TIMEOUT } from './hostile-gen.js';

const CUSTOM = fixture('custom/http-profile.json');
const decisions = readFileSync(fixture('assay/run-noids.decisions.ndjson'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const ALLOW = decisions.find((r) => r.decision === 'allow')!;
const DENY = decisions.find((r) => r.decision === 'deny')!;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A record of some profile, and the value a repeat of one of its keys may hold instead. */
const TOOLS = ['t', 'rm', 'github.add_deploy_key'];
const recordArb = fc.oneof(
  fc.record({
    ts: fc.constantFrom('2026-04-01T08:00:00.000Z', '2026-04-01T08:00:01.500Z'),
    event: fc.constantFrom('llm:request', 'llm:response', 'provider:error', 'content_block:delta', 'provider:request', 'llm:request:debug'),
    session_id: fc.constantFrom('s1', 's2'),
    request_id: fc.constantFrom('r1', 'r2', 'r3'),
    data: fc.record({ provider: fc.constantFrom('anthropic', 'openai'), model: fc.constant('m'), status: fc.constantFrom('ok', 'error') }),
  }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constantFrom('a', 'b')),
    method: fc.constantFrom('tools/call', 'tools/list', 'initialize', 'TOOLS/CALL', ' tools/call', 'tools/call\t', 'tools/call\u00a0'),
    params: fc.record({ name: fc.constantFrom(...TOOLS), arguments: fc.constant({}) }),
  }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer({ min: 1, max: 4 }), result: fc.constant({ content: [] }) }),
  fc.record({ custom_id: fc.constantFrom('c1', 'c2'), method: fc.constant('POST'), url: fc.constant('/v1/chat/completions'), body: fc.constant({ model: 'gpt' }) }),
  fc.record({ id: fc.constant('batch_req_1'), custom_id: fc.constantFrom('c1', 'c2'), response: fc.record({ status_code: fc.constantFrom(200, 500), body: fc.constant({ model: 'gpt' }) }) }),
  fc.record({
    kind: fc.constantFrom('req', 'resp', 'error', 'retry', 'other'),
    conn: fc.constant('c1'),
    at: fc.constantFrom('2026-09-01T00:00:00.000Z', '2026-09-01T00:00:00.050Z'),
    method: fc.constantFrom('GET', 'POST'),
    route: fc.constantFrom('/a', '/b'),
    status: fc.constantFrom('200', '503'),
    meta: fc.record({ rid: fc.constantFrom('r1', 'r2') }),
  }),
  fc.record({ decision: fc.constantFrom('allow', 'deny'), tool: fc.constantFrom(...TOOLS) }).map(({ decision, tool }) => {
    const base = JSON.parse(JSON.stringify(decision === 'allow' ? ALLOW : DENY)) as Record<string, Json>;
    return { ...base, tool: { ...(base.tool as Record<string, Json>), name: tool } };
  }),
) as fc.Arbitrary<Record<string, Json>>;
/** What a repeated key may hold: another kind, method, tool, id. */
const ALT: Json[] = ['tools/call', 'tools/list', 'llm:request', 'content_block:delta', 'req', 'resp', 'allow', 'deny', 'assay.enforcement_decision.v0', 'other', 7, 'rm', 'c2'];

/** How one line is spelled. */
const spellingArb = fc.record({
  ws: fc.constantFrom('', ' ', '\t', '  '),
  /** Escape one character of each key (`\u` of a letter) with this chance. */
  escKey: fc.constantFrom(0, 0, 0.3, 1),
  /** Escape characters of string values (`\u`, `/` as `\/`) with this chance. */
  escValue: fc.constantFrom(0, 0, 0.3, 1),
  upper: fc.boolean(),
  /** A top-level or `params`/`tool` key written twice: its index among the keys, the other value, before or after. */
  repeat: fc.option(fc.record({ at: fc.nat(7), nested: fc.boolean(), value: fc.constantFrom(...ALT), before: fc.boolean() }), { freq: 2 }),
  /** A value longer than the classifier's scan budget, first. */
  pad: fc.constantFrom(false, false, false, false, false, false, false, false, false, true),
  seed: fc.nat(),
});
type Spelling = typeof spellingArb extends fc.Arbitrary<infer T> ? T : never;

function rng(seed: number): () => number {
  let x = seed | 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) % 1000) / 1000;
  };
}

/** A JSON string literal with some characters escaped: letters as `\u`, `/` as `\/`. */
function str(s: string, p: number, sp: Spelling, r: () => number): string {
  let out = '"';
  let after = false;
  for (const ch of JSON.stringify(s).slice(1, -1)) {
    if (after || ch === '\\') {
      // An escape JSON.stringify wrote is kept as it is.
      after = !after && ch === '\\';
      out += ch;
    } else if (p > 0 && /[a-z:./_]/i.test(ch) && r() < p) {
      if (ch === '/' && r() < 0.5) out += '\\/';
      else {
        const h = ch.charCodeAt(0).toString(16).padStart(4, '0');
        out += `\\u${sp.upper ? h.toUpperCase() : h}`;
      }
    } else out += ch;
  }
  return `${out}"`;
}

function value(v: Json, sp: Spelling, r: () => number): string {
  if (typeof v === 'string') return str(v, sp.escValue, sp, r);
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((x) => value(x, sp, r)).join(`,${sp.ws}`)}]`;
  return object(Object.entries(v), sp, r);
}

function object(entries: Array<[string, Json]>, sp: Spelling, r: () => number): string {
  const w = sp.ws;
  return `{${w}${entries.map(([k, v]) => `${str(k, sp.escKey > 0 && r() < sp.escKey ? 1 / k.length : 0, sp, r)}${w}:${w}${value(v, sp, r)}`).join(`,${w}`)}${w}}`;
}

/** One record written as the spelling says (the line JSON.parse reads is the judge). */
function render(rec: Record<string, Json>, sp: Spelling, n: number): string {
  const r = rng(sp.seed);
  let entries: Array<[string, Json]> = Object.entries(rec);
  if (sp.repeat) {
    const { at, nested, value: alt, before } = sp.repeat;
    const nest = entries.find(([, v]) => v !== null && typeof v === 'object' && !Array.isArray(v));
    if (nested && nest) {
      const inner = Object.entries(nest[1] as Record<string, Json>);
      if (inner.length > 0) {
        const k = inner[at % inner.length]![0];
        const dup: [string, Json] = [k, alt];
        const i = inner.findIndex(([x]) => x === k);
        inner.splice(before ? i : i + 1, 0, dup);
        // Kept as entries (a repeat), rendered below.
        entries = entries.map(([k2, v]) => (k2 === nest[0] ? [k2, { __entries: inner } as unknown as Json] : [k2, v]));
      }
    } else {
      const k = entries[at % entries.length]![0];
      const i = entries.findIndex(([x]) => x === k);
      entries.splice(before ? i : i + 1, 0, [k, alt]);
    }
  }
  entries.push(['n', n]);
  if (sp.pad) entries.unshift(['pad', 'p'.repeat(SCAN_BUDGET + 16)]);
  const write = (es: Array<[string, Json]>): string => {
    const w = sp.ws;
    return `{${w}${es
      .map(([k, v]) => {
        const inner = v !== null && typeof v === 'object' && !Array.isArray(v) && '__entries' in v ? write((v as unknown as { __entries: Array<[string, Json]> }).__entries) : value(v, sp, r);
        return `${str(k, sp.escKey > 0 && r() < sp.escKey ? 1 / k.length : 0, sp, r)}${w}:${w}${inner}`;
      })
      .join(`,${w}`)}${w}}`;
  };
  return write(entries);
}

/** The report, without what only the options or the bytes can change. */
function meaning(r: Report, dropDuplicateKey: boolean) {
  // What only the written repeat can give: DUPLICATE_KEY, and Assay's `repeated-key` (a key given
  // twice on a line that mentions tools/call, docs/assay.md).
  const repeat = (f: Report['findings'][number]) => f.code === 'DUPLICATE_KEY' || (f.code === 'DELIVERY_UNVERIFIED' && (f.data as { reason?: string }).reason === 'repeated-key');
  const dropped = new Map<string, number>();
  for (const f of r.findings) if (dropDuplicateKey && repeat(f)) dropped.set(f.code, (dropped.get(f.code) ?? 0) + 1);
  const drop = (c: string) => dropDuplicateKey && c === 'DUPLICATE_KEY';
  return {
    channels: r.channels,
    records: r.records,
    notes: r.notes,
    // `unparsed`: the lines the reader skipped without JSON.parse, which --validate-all parses.
    inputs: r.inputs.map((i) => ({ ...i, bytes: 0, unparsed: 0 })),
    findings: r.findings.filter((f) => !(dropDuplicateKey && repeat(f))),
    findingCounts: Object.fromEntries(
      Object.entries(r.findingCounts)
        .filter(([c]) => !drop(c))
        .map(([c, n]) => [c, n - (dropped.get(c) ?? 0)] as const)
        .filter(([, n]) => n > 0),
    ),
  };
}

const HANDSHAKE = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}';
const PROFILES = ['auto', 'amplifier', 'assay', 'jsonrpc', 'openai-batch', CUSTOM, `auto,${CUSTOM}`];
const linesArb = fc.array(fc.tuple(recordArb, spellingArb), { minLength: 1, maxLength: 8 });

type Files = { capture: string[]; caller: string[]; upstream: string[] };

/** The run as given, then as JSON.parse reads each line; the logs only for profiles that read them. */
async function run(profile: string, f: Files, validateAll: boolean, dir: string): Promise<Report> {
  const logs = profile.startsWith('auto') || profile === 'assay';
  const capture = logs ? f.capture : [...f.capture, ...f.caller, ...f.upstream];
  return analyze({
    inputs: [writeCapture(capture, 'run.decisions.ndjson', dir)],
    ...(logs ? { caller: [writeCapture(f.caller, 'run.caller.jsonl', dir)], upstream: [writeCapture(f.upstream, 'run.upstream.jsonl', dir)] } : {}),
    profile,
    maxFindings: 100_000,
    validateAll,
  });
}

async function three(profile: string, files: Files) {
  const canon = (ls: string[]) => ls.map((l) => JSON.stringify(JSON.parse(l)));
  const dir = tmpDir();
  const dir2 = tmpDir();
  const fast = await run(profile, files, false, dir);
  const all = await run(profile, files, true, dir);
  const parsed = await run(profile, { capture: canon(files.capture), caller: canon(files.caller), upstream: canon(files.upstream) }, false, dir2);
  return { fast, all, parsed, dir, dir2 };
}

describe('every byte-level decision equals JSON.parse reading', () => {
  it('default report = --validate-all report = the report of the lines as JSON.parse reads them, for every profile', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PROFILES), linesArb, linesArb, linesArb, async (profile, cap, cal, up) => {
        const files = {
          capture: cap.map(([rec, sp], i) => render(rec, sp, i)),
          // Each log opens with a plain JSON-RPC message: whether a log holds any at all is looked
          // up on its bytes before the run, and a `\u` escape counts as "may" (analyze.ts).
          caller: [HANDSHAKE, ...cal.map(([rec, sp], i) => render(rec, sp, i))],
          upstream: [HANDSHAKE, ...up.map(([rec, sp], i) => render(rec, sp, i))],
        };
        const { fast, all, parsed, dir, dir2 } = await three(profile, files);
        expect(meaning(fast, false)).toEqual(meaning(all, false));
        const fix = (r: Report, from: string) => JSON.parse(JSON.stringify(meaning(r, true)).split(from).join('<dir>')) as unknown;
        expect(fix(fast, dir)).toEqual(fix(parsed, dir2));
      }),
      fcParams(Math.max(30, FUZZ_RUNS)),
    );
  }, FUZZ_TEST_TIMEOUT);
});
