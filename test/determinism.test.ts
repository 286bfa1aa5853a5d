/**
 * Determinism: directories are walked in natural order (digit runs by value, else bytes), so the same tree gives the same
 * report whatever order the filesystem returns entries in; the same inputs give byte-identical
 * output, run after run, in every format.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { FORMATTERS } from '../src/formatters/index.js';
import { naturalOrder } from '../src/input/sources.js';
import { amp, resetClock, runCli, tmpDir } from './helpers.js';

// Names whose natural order differs from locale, plain byte and case-insensitive orders.
const FILES = ['b.jsonl', 'B.jsonl', 'a.jsonl', '10.jsonl', '9.jsonl', '_x.ndjson', 'é.jsonl', 'sub/z.jsonl', 'sub/A.json', 'Sub2/m.jsonl.gz'];

/** Each file holds one side of calls in one shared scope, so the pairing depends on the file order. */
function contents(name: string, k: number): string {
  resetClock();
  const lines = [
    amp({ event: 'llm:request', session: 'shared', provider: 'p', caller: `c-${k}`, ts: `2026-09-01T00:00:${String(k).padStart(2, '0')}Z` }),
    amp({ event: 'llm:response', session: 'shared', provider: 'p', status: 'ok', ts: `2026-09-01T00:01:${String(k).padStart(2, '0')}Z` }),
  ];
  if (name.endsWith('.json')) return JSON.stringify(lines, null, 2) + '\n';
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

function makeTree(order: readonly string[]): string {
  const root = tmpDir();
  const caps = path.join(root, 'caps');
  for (const name of order) {
    const k = FILES.indexOf(name);
    const p = path.join(caps, name);
    mkdirSync(path.dirname(p), { recursive: true });
    const text = contents(name, k);
    writeFileSync(p, name.endsWith('.gz') ? gzipSync(Buffer.from(text)) : text);
  }
  return root;
}

describe('determinism', () => {
  it('two trees created in different orders give byte-identical reports, walked in natural order', async () => {
    const t1 = makeTree(FILES);
    const t2 = makeTree([...FILES].reverse());
    const a = await runCli(['analyze', '--format', 'json', 'caps'], { cwd: t1 });
    const b = await runCli(['analyze', '--format', 'json', 'caps'], { cwd: t2 });
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const paths = (JSON.parse(a.stdout) as { inputs: { path: string }[] }).inputs.map((i) => i.path);
    const sorted = [...paths].sort((x, y) => naturalOrder(Buffer.from(x), Buffer.from(y)));
    expect(paths).toEqual(sorted);
    expect(paths).toHaveLength(FILES.length);
    // run-9 before run-10: digit runs compare by value.
    expect(paths.slice(0, 2)).toEqual([path.join('caps', '9.jsonl'), path.join('caps', '10.jsonl')]);
  });

  it('the same inputs give byte-identical output in every registered format, run after run', async () => {
    const t = makeTree(FILES);
    const caps = path.join(t, 'caps');
    const render = async () => {
      const r = await analyze({ inputs: [caps] });
      return Object.entries(FORMATTERS).map(([name, f]) => [name, f.render(r, { chalk: new Chalk({ level: 0 }), cwd: t })]);
    };
    const first = await render();
    const second = await render();
    expect(second).toEqual(first);
  });
});
