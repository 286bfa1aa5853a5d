/** Findings: the constructor clips every string of its data; listing them never spreads them into a call (150 000 orphans crashed). */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { fixture, tmpDir } from '../../test/helpers.js';
import { FindingCollector, finding } from './findings.js';

describe('FindingCollector.list', () => {
  it('lists 200 000 findings of one code with --max-findings 1000000', () => {
    const c = new FindingCollector(1_000_000);
    for (let k = 0; k < 200_000; k++) {
      c.add(finding('ORPHAN_REQUEST', { channel: 'llm', scope: 's', locations: [{ path: 'x.jsonl', line: k + 1 }] }, { caller: 'main', reason: 'end-of-input', ageMs: null, id: `r${k}` }));
    }
    const list = c.list();
    expect(list).toHaveLength(200_000);
    expect(list[199_999]!.locations[0]!.line).toBe(200_000);
  });
});

describe('FindingCollector.skip', () => {
  it('counts and keeps exactly what add does, for findings in any order, skipping only those add would drop', () => {
    const make = (path: string, line: number, k: number) =>
      finding('CROSSED_PAIR', { channel: 'llm', scope: 's', locations: [{ path, line }] }, { shadow: k % 2 ? 'fifo' : 'signature', terminalCaller: 'main', trueCaller: 'main', shadowCaller: null, id: `r${k}` });
    for (const max of [0, 1, 3]) {
      const all = new FindingCollector(max);
      const some = new FindingCollector(max);
      let skipped = 0;
      for (let k = 0; k < 400; k++) {
        // Mostly in order, some out of order, some on one line, two files.
        const path = k % 7 === 0 ? 'a.jsonl' : 'b.jsonl';
        const line = k % 5 === 0 ? 400 - k : (k >> 1) + 1;
        all.add(make(path, line, k));
        if (some.skip('CROSSED_PAIR', { path, line })) skipped++;
        else some.add(make(path, line, k));
      }
      expect(some.count('CROSSED_PAIR')).toBe(400);
      expect(some.list()).toEqual(all.list());
      expect(skipped).toBeGreaterThan(max === 0 ? 399 : 100);
    }
  });
});

describe('the finding constructor clips every string of its data', () => {
  it('a 6 000-char deny reason reaches DENIED_BUT_DELIVERED clipped, in data and message', async () => {
    const A = fixture('assay');
    const dec = readFileSync(path.join(A, 'run-ids.decisions.ndjson'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        const o = JSON.parse(l) as Record<string, unknown>;
        if (o.decision === 'deny') o.reason = 'R'.repeat(6000);
        return JSON.stringify(o);
      });
    const file = path.join(tmpDir(), 'dec.ndjson');
    writeFileSync(file, dec.join('\n') + '\n');
    const r = await analyze({ inputs: [file], caller: [path.join(A, 'run-ids.caller.jsonl')], upstream: [path.join(A, 'run-ids.upstream.jsonl')] });
    const denied = r.findings.filter((f) => f.code === 'DENIED_BUT_DELIVERED');
    expect(denied.length).toBeGreaterThan(0);
    for (const f of denied) {
      const reason = (f.data as { reason?: string }).reason!;
      expect(reason).toMatch(/^R{1024}…\[\+4976 chars, sha256 [0-9a-f]{12}\]$/);
      expect(f.message.length).toBeLessThan(1300);
    }
  });

  it('strings nested in arrays and objects are clipped too, and the scope', () => {
    const f = finding('INCONSISTENT_RECORD', { scope: 's'.repeat(5000), locations: [] }, { problems: ['p'.repeat(5000)] });
    expect(f.data.problems[0]!.length).toBeLessThan(1100);
    expect(f.scope!.length).toBeLessThan(1100);
  });
});
