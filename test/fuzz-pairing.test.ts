/**
 * Fuzz generators for the hard pairing classes: reused ids on every kind of channel (every
 * combination of the ChannelSpec flags the profiles declare), signature conflicts under an id
 * match, stale-open-call loads and many-scope loads; and the Assay audit's accounting identity
 * with reused ids across the three files. `npm run fuzz` runs it with FUZZ_RUNS.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { PairingEngine } from '../src/engine/engine.js';
import { TEST_MEANING } from '../src/engine/test-meaning.js';
import type { CallEvent, ChannelSpec, PairRecord } from '../src/model.js';
import type { Finding } from '../src/report/findings.js';
import { ledgerViolations } from '../src/report/report.js';
import { fcParams, FUZZ_RUNS, FUZZ_TEST_TIMEOUT } from './hostile-gen.js';
import { ROOT, tmpDir } from './helpers.js';

const flags = fc.record({ ordered: fc.boolean(), signatureRequired: fc.boolean(), distinctTerminals: fc.boolean() });
const small = (xs: string[]) => fc.option(fc.constantFrom(...xs), { nil: null, freq: 3 });
const event = fc.record({
  role: fc.constantFrom('request', 'terminal', 'terminal', 'interim') as fc.Arbitrary<CallEvent['role']>,
  scope: fc.constantFrom('s1', 's2', 's3'),
  id: small(['a', 'b']),
  tool: small(['t', 'u']),
  model: small(['m', 'n']),
});

function run(spec: Partial<ChannelSpec>, evs: Array<{ role: CallEvent['role']; scope: string; id: string | null; tool: string | null; model: string | null }>, extra = {}) {
  const ch: ChannelSpec = { name: 'c', ...TEST_MEANING, ordered: false, signatureFields: ['tool', 'model'], ...spec };
  const pairs: PairRecord[] = [];
  const findings: Finding[] = [];
  const e = new PairingEngine({ channels: [ch], sink: { finding: (f) => findings.push(f), pair: (p) => pairs.push(p) }, ...extra });
  let line = 0;
  for (const x of evs)
    e.push({ role: x.role, channel: 'c', scope: x.scope, id: x.id, sig: [x.tool, x.model], time: line, caller: 'k', attrs: {}, loc: { path: 'f', line: ++line } });
  e.finish();
  return { e, pairs, findings, snap: e.snapshot() };
}

describe('fuzz: reused ids and signature conflicts on every kind of channel', { timeout: FUZZ_TEST_TIMEOUT }, () => {
  it('the ledger holds, no pair joins conflicting required signatures, a distinct-terminal channel absorbs nothing', () => {
    fc.assert(
      fc.property(flags, fc.array(event, { maxLength: 60 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 4 }), (f, evs, maxOpen, maxHeld) => {
        const { pairs, findings, snap } = run(f, evs, { maxOpenCalls: maxOpen, maxHeldScopes: maxHeld });
        const c = snap.channels[0]!.counters;
        expect(c.requests).toBe(c.pairs + c.orphanRequests);
        expect(c.terminals).toBe(c.pairs + c.orphanResponses + c.duplicateTerminals + c.redundant);
        const scopes = snap.channels[0]!.scopes.map((s) => s.counters);
        for (const k of ['requests', 'terminals', 'pairs', 'orphanRequests', 'orphanResponses'] as const) {
          // Folded scopes live on in the channel's totals only.
          expect(scopes.reduce((n, s) => n + s[k], 0)).toBeLessThanOrEqual(c[k]);
        }
        if (f.distinctTerminals) expect(c.duplicateTerminals).toBe(0);
        // A conflict is never a pair: each is one of the orphan responses.
        const conflicts = findings.filter((x) => x.code === 'SIGNATURE_CONFLICT').length;
        expect(conflicts).toBeLessThanOrEqual(c.orphanResponses);
        if (!f.signatureRequired) expect(conflicts).toBe(0);
        expect(pairs.length).toBe(c.pairs);
      }),
      fcParams(),
    );
  });

  it('on a channel that requires a signature, every pair (by id included) has agreeing known fields', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(event, { maxLength: 60 }), (ordered, evs) => {
        const sigs = new Map<number, [string | null, string | null]>();
        evs.forEach((x, i) => sigs.set(i + 1, [x.tool, x.model]));
        const { pairs } = run({ ordered, signatureRequired: true }, evs);
        for (const p of pairs) {
          const a = sigs.get(p.request.loc.line)!;
          const b = sigs.get(p.terminal.loc.line)!;
          for (let i = 0; i < 2; i++) if (a[i] !== null && b[i] !== null) expect(a[i]).toBe(b[i]);
        }
      }),
      fcParams(),
    );
  });
});

describe('fuzz: loads stay linear', { timeout: FUZZ_TEST_TIMEOUT }, () => {
  it('stale open calls before id-paired and id-less calls: time per event stays flat', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 20_000 }), fc.integer({ min: 1000, max: 20_000 }), fc.boolean(), (stale, paired, ids) => {
        const evs: Array<{ role: CallEvent['role']; scope: string; id: string | null; tool: string | null; model: string | null }> = [];
        for (let k = 0; k < stale; k++) evs.push({ role: 'request', scope: 's', id: ids ? `x${k}` : null, tool: 't', model: `stale-${k}` });
        for (let k = 0; k < paired; k++) {
          evs.push({ role: 'request', scope: 's', id: ids ? `r${k}` : null, tool: 't', model: 'm' });
          evs.push({ role: 'terminal', scope: 's', id: ids ? `r${k}` : null, tool: 't', model: 'm' });
        }
        const t0 = process.cpuUsage();
        const { snap } = run({}, evs);
        // 40 000 events: a scan per terminal would be 10^8 signature comparisons. CPU time, not
        // wall time: other processes share the machine.
        const cpu = process.cpuUsage(t0);
        expect((cpu.user + cpu.system) / 1000).toBeLessThan(10_000);
        expect(snap.channels[0]!.counters.pairs).toBe(paired);
      }),
      fcParams(Math.max(3, Math.ceil(FUZZ_RUNS / 8))),
    );
  });

  it('many scopes under a small cap: totals equal the uncapped run, the held scopes stay within the cap (+ those with open calls)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1, max: 64 }), fc.array(fc.nat({ max: 1999 }), { maxLength: 20 }), (n, cap, open) => {
        const evs: Array<{ role: CallEvent['role']; scope: string; id: string | null; tool: string | null; model: string | null }> = [];
        for (let k = 0; k < n; k++) {
          evs.push({ role: 'request', scope: `s${k}`, id: 'r', tool: 't', model: 'm' });
          if (!open.includes(k)) evs.push({ role: 'terminal', scope: `s${k}`, id: 'r', tool: 't', model: 'm' });
        }
        const capped = run({}, evs, { maxHeldScopes: cap });
        const full = run({}, evs);
        const a = capped.snap.channels[0]!;
        const b = full.snap.channels[0]!;
        expect({ ...a.counters, latency: null }).toEqual({ ...b.counters, latency: null });
        expect(a.scopes.length + (a.scopesFolded ?? 0)).toBe(n);
        expect(a.scopes.length).toBeLessThanOrEqual(cap + new Set(open.filter((k) => k < n)).size);
      }),
      fcParams(),
    );
  });
});

// The Assay audit with ids drawn from tiny sets: every arrival is paired with one allow or reported.
const rows = readFileSync(path.join(ROOT, 'fixtures/assay/run-noids.decisions.ndjson'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const BASE = { allow: rows.find((r) => r.decision === 'allow')!, deny: rows.find((r) => r.decision === 'deny')! };
const decision = fc.record({ d: fc.constantFrom('allow', 'deny') as fc.Arbitrary<'allow' | 'deny'>, tool: fc.constantFrom('t', 'u'), corr: small(['c1', 'c2']) });
const call = fc.record({ id: fc.option(fc.constantFrom(1, 2, '1'), { nil: undefined }), tool: fc.constantFrom('t', 'u'), corr: small(['c1', 'c2']) });
const line = (c: { id: unknown; tool: string; corr: string | null }) =>
  JSON.stringify({ jsonrpc: '2.0', ...(c.id === undefined ? {} : { id: c.id }), method: 'tools/call', params: { name: c.tool, ...(c.corr ? { _meta: { 'assay.correlation_id': c.corr } } : {}) } });

describe('fuzz: the Assay audit with reused ids', { timeout: FUZZ_TEST_TIMEOUT }, () => {
  it('each arrival is paired with exactly one allow (perhaps flagged ambiguous), or is DENIED_BUT_DELIVERED / UNRECORDED_DELIVERY; no pair joins two tools', async () => {
    const dir = tmpDir();
    let k = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(decision, { maxLength: 8 }), fc.option(fc.array(call, { maxLength: 8 }), { nil: null }), fc.array(call, { maxLength: 8 }), async (ds, caller, upstream) => {
        const d = path.join(dir, `d${k}.ndjson`);
        const u = path.join(dir, `u${k}.jsonl`);
        const c = path.join(dir, `c${k++}.jsonl`);
        writeFileSync(d, ds.map((x) => JSON.stringify({ ...BASE[x.d], tool: { ...(BASE[x.d].tool as object), name: x.tool }, ...(x.corr ? { correlation_id: x.corr } : {}) }) + '\n').join(''));
        writeFileSync(u, upstream.map((x) => line(x) + '\n').join(''));
        if (caller) writeFileSync(c, caller.map((x) => line(x) + '\n').join(''));
        const pairs: PairRecord[] = [];
        const r = await analyze({ inputs: [d], upstream: [u], ...(caller ? { caller: [c] } : {}), onPair: (p) => pairs.push(p), maxFindings: 1000 });
        expect(ledgerViolations(r)).toEqual([]);
        const del = r.channels.find((x) => x.channel === 'delivery');
        // An `ambiguous` DENIED_BUT_DELIVERED flags an arrival that is also an allow's pair (no id
        // tells it from a denied call, docs/assay.md): it is a paired arrival, not a second one.
        const ambiguous = r.findings.filter((f) => f.code === 'DENIED_BUT_DELIVERED' && (f.data as { ambiguous?: true }).ambiguous).length;
        expect(ambiguous).toBeLessThanOrEqual(del?.pairs.total ?? 0);
        const reported = (r.findingCounts.DENIED_BUT_DELIVERED ?? 0) - ambiguous + (r.findingCounts.UNRECORDED_DELIVERY ?? 0);
        expect((del?.pairs.total ?? 0) + reported).toBe(upstream.length);
        for (const ch of r.channels) expect(ch.duplicateTerminals).toBe(0);
        for (const p of pairs) expect(p.request.attrs.tool).toBe(p.terminal.attrs.tool);
      }),
      fcParams(),
    );
  });
});
