/**
 * `callpair render`: a saved report in every format equals `analyze`'s output in that format,
 * gates and exit codes included.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMAT_NAMES } from '../src/formatters/index.js';
import { fixture, runCli, tmpDir, withoutGateLine } from './helpers.js';
import { writeGenerated } from './generate.js';

describe('render equals analyze', () => {
  const dir = tmpDir();
  const gen = path.join(dir, 'gen.jsonl');
  writeGenerated(gen, { sessions: 6, seed: 11, ids: false });
  const cases: Array<{ name: string; inputs: string[]; gate: string[] }> = [
    { name: 'seed trace, default gate', inputs: [fixture('seed-trace.jsonl')], gate: [] },
    { name: 'orphans and crossed, failing gate', inputs: [fixture('orphan-crossed.jsonl'), gen], gate: ['--fail-on', 'warning', '--max-orphan-requests', '0', '--min-id-coverage', '0.5'] },
    { name: 'failing gate, --no-fail', inputs: [gen], gate: ['--max-ambiguous', '0', '--no-fail'] },
  ];
  for (const c of cases) {
    it(`${c.name}: every format`, async () => {
      const saved = path.join(dir, `${c.name.replace(/\W+/g, '-')}.json`);
      const s = await runCli(['analyze', ...c.inputs, '-f', 'json', '--timeline', '-o', saved, ...c.gate]);
      expect(withoutGateLine(s.stderr)).toBe('');
      const resaved = path.join(dir, `${c.name.replace(/\W+/g, '-')}-plain.json`);
      await runCli(['analyze', ...c.inputs, '-f', 'json', '-o', resaved]);
      for (const format of FORMAT_NAMES) {
        const regate = format !== 'json' && format !== 'html';
        // The three runs of a format at once (they only read the saved reports).
        const [a, r, g] = await Promise.all([
          runCli(['analyze', ...c.inputs, '-f', format, '--no-color', ...(format === 'json' ? ['--timeline'] : []), ...c.gate]),
          // The report's own gate stands…
          runCli(['render', saved, '-f', format, '--no-color']),
          // …and the same gate options on a report saved without them give the same output too.
          regate ? runCli(['render', resaved, '-f', format, '--no-color', ...c.gate]) : null,
        ]);
        expect(r.stdout, format).toBe(a.stdout);
        expect(r.code, format).toBe(a.code);
        expect(r.stderr, `${format}: the verdict line`).toBe(a.stderr);
        if (g) {
          expect(g.stdout, `${format} regated`).toBe(a.stdout);
          expect(g.code, `${format} regated`).toBe(a.code);
        }
      }
    }, 60_000);
  }

  it('--report files and exit 2 on what is not a report', async () => {
    const saved = path.join(dir, 'r.json');
    await runCli(['analyze', fixture('orphan-crossed.jsonl'), '-f', 'json', '-o', saved]);
    const md = path.join(dir, 'r.md');
    const r = await runCli(['render', saved, '-f', 'table', '--report', `markdown=${md}`]);
    const a = await runCli(['analyze', fixture('orphan-crossed.jsonl'), '-f', 'markdown']);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(md, 'utf8')).toBe(a.stdout);
    expect(r.code).toBe(a.code);
    const bad = await runCli(['render', fixture('seed-trace.jsonl')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});
