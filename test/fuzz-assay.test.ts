/**
 * Fuzz target of the Assay delivery audit (docs/assay.md, "Exact, or fail closed"): the default
 * gate never passes when a denied call reached the upstream, on any capture built from the classes
 * that once broke it — reused JSON-RPC and correlation ids, evictions and windows with small
 * bounds, oversized / malformed / batch lines, decision files whose order is not the calls' order,
 * and missing, cut or handshake-only sides. `npm test` runs a few cases with a fixed seed;
 * `npm run fuzz` runs FUZZ_RUNS of them.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { ledgerViolations } from '../src/report/report.js';
import { fcParams, FUZZ_TEST_TIMEOUT } from './hostile-gen.js';
import { ROOT, tmpDir } from './helpers.js';

const rows = readFileSync(path.join(ROOT, 'fixtures/assay/run-noids.decisions.ndjson'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const BASE = { allow: rows.find((r) => r.decision === 'allow')!, deny: rows.find((r) => r.decision === 'deny')! };
const INIT = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"driver","version":"1"}}}';
const MAX_LINE = 4096;

/** One call of the run: what the caller sent, what the policy decided, whether it reached the upstream. */
const callArb = fc.record({
  tool: fc.constantFrom('t', 'u'),
  decision: fc.constantFrom('allow', 'allow', 'deny') as fc.Arbitrary<'allow' | 'deny'>,
  // Reused ids: from tiny sets, or none (today's producer writes no correlation id).
  rpcId: fc.constantFrom<number | string | null>(1, 2, 3, 'a', null, 1.5),
  corr: fc.option(fc.constantFrom('c1', 'c2', 'c3'), { nil: null, freq: 2 }),
  delivered: fc.boolean(),
  // How its arrival line is written: read as it is, or one the reader cannot read as a call.
  arrival: fc.constantFrom('plain', 'plain', 'plain', 'oversized', 'malformed', 'batch'),
  decisionLine: fc.constantFrom('plain', 'plain', 'plain', 'plain', 'malformed'),
});
const captureArb = fc.record({
  calls: fc.array(callArb, { minLength: 1, maxLength: 8 }),
  caller: fc.constantFrom('full', 'full', 'missing', 'handshake-only', 'cut-first', 'cut-last'),
  /** Decision records in one file, or split over run-9 and run-10 of a directory (either half first). */
  decisionFiles: fc.constantFrom('one', 'split', 'split-swapped'),
  /** Arrivals nothing decided (a path around the proxy). */
  extraArrivals: fc.array(fc.record({ tool: fc.constantFrom('t', 'u'), rpcId: fc.constantFrom<number | null>(1, 2, 9, null) }), { maxLength: 2 }),
  maxOpenCalls: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
  window: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
});
type Capture = typeof captureArb extends fc.Arbitrary<infer T> ? T : never;

function rpcLine(id: number | string | null, tool: string, corr: string | null): string {
  const idPart = id === null ? '' : `"id":${typeof id === 'string' ? JSON.stringify(id) : String(id)},`;
  const meta = corr !== null ? `,"_meta":{"assay.correlation_id":${JSON.stringify(corr)}}` : '';
  return `{"jsonrpc":"2.0",${idPart}"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":{}${meta}}}`;
}

function arrivalLine(c: Capture['calls'][number]): string {
  const line = rpcLine(c.rpcId, c.tool, c.corr);
  if (c.arrival === 'oversized') return line.replace('"arguments":{}', `"arguments":{"pad":"${'x'.repeat(MAX_LINE)}"}`);
  if (c.arrival === 'malformed') return line.slice(0, line.length - 3);
  if (c.arrival === 'batch') return `[${line}]`;
  return line;
}

function decisionLine(c: Capture['calls'][number]): string {
  const b = BASE[c.decision];
  const o: Record<string, unknown> = { ...b, tool: { ...(b.tool as object), name: c.tool } };
  delete o.correlation_id;
  if (c.corr !== null) o.correlation_id = c.corr;
  const line = JSON.stringify(o);
  return c.decisionLine === 'malformed' ? line.slice(0, 40) : line;
}

let k = 0;
async function runCapture(cap: Capture) {
  const dir = path.join(tmpDir(), `a${k++}`);
  mkdirSync(dir);
  const file = (name: string, lines: string[]) => {
    const p = path.join(dir, name);
    writeFileSync(p, lines.map((l) => `${l}\n`).join(''));
    return p;
  };
  const decisions = cap.calls.map(decisionLine);
  let inputs: string[];
  if (cap.decisionFiles === 'one') inputs = [file('d.ndjson', decisions)];
  else {
    // Natural order reads run-9 first: `split` puts the first calls there, `split-swapped` the last.
    const half = Math.ceil(decisions.length / 2);
    const [first, second] = cap.decisionFiles === 'split' ? [decisions.slice(0, half), decisions.slice(half)] : [decisions.slice(half), decisions.slice(0, half)];
    mkdirSync(path.join(dir, 'decisions'));
    file('decisions/run-9.ndjson', first);
    file('decisions/run-10.ndjson', second);
    inputs = [path.join(dir, 'decisions')];
  }
  let callerLines = cap.calls.map((c) => rpcLine(c.rpcId, c.tool, c.corr));
  if (cap.caller === 'handshake-only') callerLines = [];
  else if (cap.caller === 'cut-first') callerLines = callerLines.slice(1);
  else if (cap.caller === 'cut-last') callerLines = callerLines.slice(0, -1);
  const caller = cap.caller === 'missing' ? [] : [file('c.jsonl', [INIT, ...callerLines])];
  const arrivals = [INIT, ...cap.calls.filter((c) => c.delivered).map(arrivalLine), ...cap.extraArrivals.map((x) => rpcLine(x.rpcId, x.tool, null))];
  const upstream = [file('u.jsonl', arrivals)];
  const r = await analyze({
    profile: 'assay',
    inputs,
    caller,
    upstream,
    maxLineBytes: MAX_LINE,
    maxFindings: 1000,
    ...(cap.maxOpenCalls !== undefined ? { maxOpenCalls: cap.maxOpenCalls } : {}),
    ...(cap.window !== undefined ? { profileOptions: { window: cap.window } } : {}),
  });
  return r;
}

describe('fuzz: the Assay audit fails closed', { timeout: FUZZ_TEST_TIMEOUT }, () => {
  it('the default gate never passes when a denied call reached the upstream', async () => {
    await fc.assert(
      fc.asyncProperty(captureArb, async (cap) => {
        const r = await runCapture(cap);
        expect(ledgerViolations(r)).toEqual([]);
        const bypass = cap.calls.some((c) => c.decision === 'deny' && c.delivered);
        if (bypass) expect(r.gate.passed, JSON.stringify({ counts: r.findingCounts })).toBe(false);
      }),
      fcParams(),
    );
  });

  it('a complete run with a unique correlation id per call and no bypass passes (the rule is not "always fail")', async () => {
    const r = await runCapture({
      calls: [
        { tool: 't', decision: 'allow', rpcId: 1, corr: 'c1', delivered: true, arrival: 'plain', decisionLine: 'plain' },
        { tool: 'u', decision: 'deny', rpcId: 2, corr: 'c2', delivered: false, arrival: 'plain', decisionLine: 'plain' },
        { tool: 't', decision: 'allow', rpcId: 3, corr: 'c3', delivered: true, arrival: 'plain', decisionLine: 'plain' },
      ],
      caller: 'full',
      decisionFiles: 'split',
      extraArrivals: [],
      maxOpenCalls: undefined,
      window: undefined,
    });
    expect(r.findingCounts).toEqual({});
    expect(r.gate.passed).toBe(true);
  });
});
