/**
 * `callpair merge` (docs/scale-out.md): shards split by scope merge into the bytes of one run, in
 * any grouping and order; a split scope is a SPLIT_SCOPE finding; mismatched reports are refused.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, type AnalyzeOptions } from '../src/analyze.js';
import { safeJson } from '../src/formatters/json.js';
import { mergeReports, MergeRefusal } from '../src/merge/merge.js';
import { safeJsonPieces } from '../src/formatters/json.js';
import { ledgerViolations, type Report } from '../src/report/report.js';
import { mulberry32 } from './generate.js';
import { writeShardedCapture } from './shards.js';
import { runCli, tmpDir } from './helpers.js';

const roundTrip = (r: Report): Report => JSON.parse(safeJson(r)) as Report;

/** Merges in a random tree: random order, random groups, merged reports merged again. */
function mergeTree(reports: Report[], rnd: () => number): Report {
  let level = [...reports];
  while (level.length > 1) {
    for (let i = level.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [level[i], level[j]] = [level[j]!, level[i]!];
    }
    const next: Report[] = [];
    for (let i = 0; i < level.length; ) {
      const k = 1 + Math.floor(rnd() * Math.min(3, level.length - i));
      next.push(roundTrip(mergeReports(level.slice(i, i + k))));
      i += k;
    }
    level = next;
  }
  return roundTrip(mergeReports(level));
}

describe('merge: exact for scope-disjoint shards', () => {
  it('random captures, random shards, random merge trees → the bytes of one run', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 14 }),
        fc.boolean(),
        fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
        async (seed, sessions, ids, maxFindings, maxScopes) => {
          const dir = tmpDir();
          const files = writeShardedCapture(dir, seed, sessions, ids);
          const opts: Partial<AnalyzeOptions> = { ...(maxFindings !== undefined ? { maxFindings } : {}), ...(maxScopes !== undefined ? { maxScopes } : {}) };
          const whole = await analyze({ inputs: [dir], ...opts });
          expect(ledgerViolations(whole)).toEqual([]);
          const rnd = mulberry32(seed ^ 0x5eed);
          // Shards: files dealt at random into 1..files shards (scope-disjoint: a session is in one file).
          const nShards = 1 + Math.floor(rnd() * files.length);
          const shards: string[][] = Array.from({ length: nShards }, () => []);
          for (const f of files) shards[Math.floor(rnd() * nShards)]!.push(f);
          const reports: Report[] = [];
          // A shard reads its files in any order (the report is the same).
          for (const s of shards) if (s.length > 0) reports.push(roundTrip(await analyze({ inputs: s.sort(() => rnd() - 0.5), ...opts })));
          const tree = mergeTree(reports, rnd);
          // A report listing only some scopes (--max-scopes) cannot show a split among the others:
          // the merge says so in a note (the shards here are scope-disjoint: no split is hidden).
          const unlisted = tree.notes.filter((n) => n.includes('are not listed'));
          if (maxScopes === undefined) expect(unlisted).toEqual([]);
          const merged = { ...tree, notes: tree.notes.filter((n) => !unlisted.includes(n)) };
          expect(safeJson(merged, 2)).toBe(safeJson(whole, 2));
          // What `callpair merge` writes: the same bytes, in pieces.
          expect([...safeJsonPieces(merged)].join('')).toBe(safeJson(whole, 2));
        },
      ),
      { numRuns: Number(process.env.MERGE_RUNS ?? 25), seed: Number(process.env.MERGE_SEED ?? 14) },
    );
  }, 120_000);
});

describe('merge: run-level findings', () => {
  it('NO_CALL_EVENTS is about the whole run: a shard without events merges away, all-empty shards keep one', async () => {
    const dir = tmpDir();
    const files = writeShardedCapture(dir, 3, 4, true);
    const other1 = path.join(dir, 'zz-other1.jsonl');
    const other2 = path.join(dir, 'zz-other2.jsonl');
    writeFileSync(other1, '{"kind":"metrics","v":1}\n{"kind":"metrics","v":2}\n');
    writeFileSync(other2, '{"kind":"metrics","v":3}\n');
    const whole = await analyze({ inputs: [dir] });
    const shardA = roundTrip(await analyze({ inputs: files }));
    const shardB = roundTrip(await analyze({ inputs: [other1, other2] }));
    expect(shardB.findingCounts.NO_CALL_EVENTS).toBe(1);
    expect(whole.findingCounts.NO_CALL_EVENTS).toBeUndefined();
    expect(safeJson(mergeReports([shardB, shardA]), 2)).toBe(safeJson(whole, 2));
    const empty = await analyze({ inputs: [other1, other2] });
    const e1 = roundTrip(await analyze({ inputs: [other1] }));
    const e2 = roundTrip(await analyze({ inputs: [other2] }));
    expect(safeJson(mergeReports([e2, e1]), 2)).toBe(safeJson(empty, 2));
  });
});

describe('merge: split scopes and refusals', () => {
  it('with split scopes too, any grouping and order gives the same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), async (seed) => {
        const dir = tmpDir();
        const files = writeShardedCapture(dir, seed, 8, true);
        const rnd = mulberry32(seed);
        // Some files go to two shards: their scopes are split.
        const shards: string[][] = [[], [], []];
        for (const f of files) {
          const a = Math.floor(rnd() * 3);
          shards[a]!.push(f);
          if (rnd() < 0.4) shards[(a + 1) % 3]!.push(f);
        }
        const reports: Report[] = [];
        for (const s of shards) if (s.length > 0) reports.push(roundTrip(await analyze({ inputs: s, maxFindings: 4 })));
        const one = safeJson(mergeTree(reports, mulberry32(seed + 1)), 2);
        const two = safeJson(mergeTree(reports, mulberry32(seed + 2)), 2);
        expect(two).toBe(one);
        const merged = JSON.parse(one) as Report;
        expect(ledgerViolations(merged)).toEqual([]);
        const splitFiles = files.filter((f) => shards.filter((s) => s.includes(f)).length > 1);
        if (splitFiles.length > 0) expect(merged.findingCounts.SPLIT_SCOPE ?? 0).toBeGreaterThan(0);
      }),
      { numRuns: 15, seed: 140 },
    );
  }, 120_000);

  it('eviction: the merged note counts the evictions of every shard (as evictedRequests does); the gate on crossed pairs cannot be evaluated', async () => {
    const dir = tmpDir();
    const line = (event: string, session: string, id: string, t: number) =>
      JSON.stringify({ event, session_id: session, request_id: id, ts: new Date(1e12 + t).toISOString(), data: { provider: 'p', model: 'm' }, ...(event === 'llm:response' ? { status: 'ok' } : {}) });
    const shard = (name: string, session: string, n: number) => {
      const reqs = Array.from({ length: n }, (_, i) => line('llm:request', session, `${session}${i}`, i));
      writeFileSync(path.join(dir, `${name}.jsonl`), reqs.join('\n') + '\n');
      return analyze({ inputs: [path.join(dir, `${name}.jsonl`)], maxOpenCalls: 1, gate: { maxCrossedRate: 0.5 } });
    };
    const a = roundTrip(await shard('a', 'X', 3)); // 2 evicted
    const b = roundTrip(await shard('b', 'Y', 4)); // 3 evicted
    const merged = mergeReports([a, b]);
    expect(merged.channels[0]!.evictedRequests).toBe(5);
    expect(merged.notes.filter((n) => n.includes('were evicted'))).toEqual([expect.stringMatching(/^llm: 5 open request\(s\) were evicted at --max-open-calls 1: /)]);
    expect(merged.gate.checks.find((c) => c.name === 'max-crossed-rate')).toMatchObject({ actual: null, unknown: 'evicted', passed: false });
  });

  it('shards that do not list every scope (--max-scopes): a split scope may go unseen, and a note says so', async () => {
    const dir = tmpDir();
    const line = (event: string, session: string, id: string, t: number) =>
      JSON.stringify({ event, session_id: session, request_id: id, ts: new Date(1e12 + t).toISOString(), data: { provider: 'p', model: 'm' }, ...(event === 'llm:response' ? { status: 'ok' } : {}) });
    // X is split across the shards; shard a lists only its worst scope (Y, an orphan), not X.
    writeFileSync(path.join(dir, 'a.jsonl'), [line('llm:request', 'X', 'r1', 0), line('llm:response', 'X', 'r1', 5), line('llm:request', 'Y', 'y1', 6)].join('\n') + '\n');
    writeFileSync(path.join(dir, 'b.jsonl'), `${line('llm:response', 'X', 'r1', 9)}\n`);
    const shard = async (name: string) => analyze({ inputs: [path.join(dir, `${name}.jsonl`)], maxScopes: 1 });
    const merged = mergeReports([roundTrip(await shard('a')), roundTrip(await shard('b'))]);
    expect(merged.findings.filter((f) => f.code === 'SPLIT_SCOPE')).toEqual([]);
    expect(merged.notes.filter((n) => n.includes('not listed'))).toEqual([
      'merge: channel llm: some scopes of the merged reports are not listed (--max-scopes, or folded in a shard): a scope split across shards is found (SPLIT_SCOPE) only where every report holding it lists it, so this merged report may differ from one run over the same inputs without saying where (docs/scale-out.md, limits of exactness)',
    ]);
  });

  it('a scope in two shards is a SPLIT_SCOPE finding naming it (safe-printed); the default gate fails', async () => {
    const dir = tmpDir();
    const scope = 'sess-\u001b[31mred\u202e';
    const req = (id: string, t: number) => JSON.stringify({ event: 'llm:request', session_id: scope, request_id: id, ts: new Date(1e12 + t).toISOString(), data: { provider: 'p', model: 'm' } });
    const res = (id: string, t: number) => JSON.stringify({ event: 'llm:response', session_id: scope, request_id: id, status: 'ok', ts: new Date(1e12 + t).toISOString(), data: { provider: 'p', model: 'm' } });
    writeFileSync(path.join(dir, 'one.jsonl'), `${req('r1', 0)}\n${res('r1', 10)}\n`);
    writeFileSync(path.join(dir, 'two.jsonl'), `${req('r2', 20)}\n${res('r2', 35)}\n`);
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    const out = path.join(dir, 'merged.json');
    expect((await runCli(['analyze', '-f', 'json', '-o', a, path.join(dir, 'one.jsonl')])).code).toBe(0);
    expect((await runCli(['analyze', '-f', 'json', '-o', b, path.join(dir, 'two.jsonl')])).code).toBe(0);
    const r = await runCli(['merge', a, b, '-o', out]);
    expect(r.code).toBe(1);
    const merged = JSON.parse(readFileSync(out, 'utf8')) as Report;
    const split = merged.findings.filter((f) => f.code === 'SPLIT_SCOPE');
    expect(split).toHaveLength(1);
    expect(split[0]!.scope).toBe(scope);
    expect(split[0]!.message).toContain('"sess-red"');
    expect(split[0]!.message).not.toMatch(/[\u001b\u202e]/);
    expect(merged.channels[0]!.scopeCount).toBe(1);
    expect(merged.channels[0]!.pairs.total).toBe(2);
    expect(ledgerViolations(merged)).toEqual([]);
    const md = await runCli(['render', out, '-f', 'markdown']);
    expect(md.stdout).toContain('SPLIT_SCOPE');
    expect(md.code).toBe(1);
    // --no-fail on render: the gate is shown, the exit code is 0.
    expect((await runCli(['render', out, '-f', 'json', '--no-fail'])).code).toBe(0);
  });

  it('refuses reports of different options, versions or shapes with one line, exit 2', async () => {
    const dir = tmpDir();
    const files = writeShardedCapture(dir, 7, 4, true);
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    await runCli(['analyze', '-f', 'json', '-o', a, files[0]!]);
    await runCli(['analyze', '-f', 'json', '-o', b, '--max-findings', '3', ...files.slice(1)]);
    const r = await runCli(['merge', a, b]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/different maxFindings options/);
    const old = JSON.parse(readFileSync(a, 'utf8')) as Report;
    const v = path.join(dir, 'v.json');
    writeFileSync(v, JSON.stringify({ ...old, tool: { ...old.tool, version: '0.0.1' } }));
    const r2 = await runCli(['merge', a, v]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/different versions/);
    const p = path.join(dir, 'p.json');
    writeFileSync(p, JSON.stringify({ ...old, run: { ...old.run, profile: 'amplifier' } }));
    expect((await runCli(['merge', a, p])).stderr).toMatch(/different profiles/);
    const junk = path.join(dir, 'junk.json');
    writeFileSync(junk, '{"schema":"nope"}');
    const r3 = await runCli(['merge', a, junk]);
    expect(r3.code).toBe(2);
    expect(r3.stderr.trim().split('\n')).toHaveLength(1);
    expect(() => mergeReports([])).toThrow(MergeRefusal);
  });
});

describe('merge: every profile whose records are counts', () => {
  /** Splits a JSONL fixture into one file per scope, read by `scopeOf`. */
  function splitBy(src: string, dir: string, scopeOf: (rec: Record<string, unknown>) => string): string[] {
    const by = new Map<string, string[]>();
    for (const line of readFileSync(src, 'utf8').split('\n').filter(Boolean)) {
      const k = scopeOf(JSON.parse(line) as Record<string, unknown>);
      by.set(k, [...(by.get(k) ?? []), line]);
    }
    return [...by].map(([k, lines], i) => {
      const f = path.join(dir, `shard-${i}-${k.replace(/\W/g, '')}.jsonl`);
      writeFileSync(f, `${lines.join('\n')}\n`);
      return f;
    });
  }

  it('IDS_NEVER_MATCH is a property of the whole run: a shard that never paired by id does not carry it into a merge whose other shards did, and shards that all never paired merge into the one run', async () => {
    const dir = tmpDir();
    const lines = readFileSync(path.resolve('fixtures/custom/ids/calls.jsonl'), 'utf8').split('\n').filter(Boolean);
    const a = path.join(dir, 'a.jsonl');
    const b = path.join(dir, 'b.jsonl');
    writeFileSync(a, `${lines[0]}\n${lines[2]}\n`);
    writeFileSync(b, `${lines[1]}\n${lines[3]}\n`);
    for (const [name, expectFinding] of [['number-and-string.json', true], ['matching.json', false]] as const) {
      const spec = JSON.parse(readFileSync(path.resolve('fixtures/custom/ids', name), 'utf8')) as Record<string, unknown>;
      const profile = path.join(dir, name);
      writeFileSync(profile, JSON.stringify({ ...spec, scope: { from: 'file' } }));
      const whole = await analyze({ inputs: [a, b], profile });
      expect((whole.findingCounts.IDS_NEVER_MATCH ?? 0) > 0).toBe(expectFinding);
      const shards = await Promise.all([a, b].map((f) => analyze({ inputs: [f], profile })));
      expect(safeJson(mergeReports(shards.map(roundTrip)))).toBe(safeJson(whole));
      expect(safeJson(mergeReports([...shards].reverse().map(roundTrip)))).toBe(safeJson(whole));
    }
    // One shard that paired by id (the matching profile's) and one that did not: the merge has none.
    const spec = JSON.parse(readFileSync(path.resolve('fixtures/custom/ids/number-and-string.json'), 'utf8')) as Record<string, unknown>;
    const profile = path.join(dir, 'mixed.json');
    writeFileSync(profile, JSON.stringify({ ...spec, scope: { from: 'file' } }));
    const c = path.join(dir, 'c.jsonl');
    writeFileSync(c, '{"kind":"req","id":7,"t":"2026-01-01T00:00:01.000Z"}\n{"kind":"res","id":7,"t":"2026-01-01T00:00:01.200Z"}\n');
    const whole = await analyze({ inputs: [a, c], profile });
    expect(whole.findingCounts.IDS_NEVER_MATCH).toBeUndefined();
    const shards = await Promise.all([a, c].map((f) => analyze({ inputs: [f], profile })));
    expect(shards[0]!.findingCounts.IDS_NEVER_MATCH).toBe(1);
    expect(safeJson(mergeReports(shards.map(roundTrip)))).toBe(safeJson(whole));
  });

  it('custom profile shards (one connection each) merge into the bytes of one run, records summed', async () => {
    const dir = tmpDir();
    const profile = path.resolve('fixtures/custom/http-profile.json');
    const files = splitBy(path.resolve('fixtures/custom/http-log.jsonl'), dir, (r) => String(r.conn));
    expect(files.length).toBeGreaterThan(1);
    const whole = await analyze({ inputs: files, profile });
    expect(Object.keys(whole.records)).toEqual(['http-log']);
    const shards = await Promise.all(files.map((f) => analyze({ inputs: [f], profile })));
    expect(safeJson(mergeReports(shards.map(roundTrip)))).toBe(safeJson(whole));
    expect(safeJson(mergeReports([...shards].reverse().map(roundTrip)))).toBe(safeJson(whole));
  });

  it('the Assay audit (a matrix over three files) is still refused, with one line', async () => {
    const r = await analyze({ inputs: [path.resolve('fixtures/assay/run-ids.decisions.ndjson')], caller: [path.resolve('fixtures/assay/run-ids.caller.jsonl')], upstream: [path.resolve('fixtures/assay/run-ids.upstream.jsonl')] } as AnalyzeOptions);
    expect(() => mergeReports([roundTrip(r), roundTrip(r)])).toThrow(/assay records, whose audit spans files/);
  });
});
