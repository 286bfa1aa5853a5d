/**
 * The rooms' boundaries: report, formatters and compare read the engine's plain-data snapshot
 * (src/model/snapshot.ts), never an engine class or module; and no module of src/ imports itself
 * through others (no import circle, counting `import type` and dynamic `import()`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.ts$/.test(name)) out.push(p);
  }
  return out;
}

/** Every module specifier a file imports or re-exports (static and dynamic), resolved against the file. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
  for (let m = re.exec(text); m; m = re.exec(text)) specs.push(m[1]!);
  return specs.map((s) => (s.startsWith('.') ? relative(root, resolve(file, '..', s)) : s));
}

/** The file a relative specifier names (`./x.js` → x.ts, `./dir/index.js` → dir/index.ts); null when outside src/ or not a source. */
function resolveImport(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const p = resolve(dirname(file), spec);
  for (const c of [p.replace(/\.js$/, '.ts'), `${p}.ts`, join(p, 'index.ts')]) if (c.endsWith('.ts') && existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

/** The strongly connected components of more than one file (or a file importing itself): Tarjan's algorithm. */
function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** Every src/**\/*.ts file and the src files it imports (static, type-only, re-exports, dynamic). */
let graphCache: Map<string, string[]> | null = null;
function importGraph(): Map<string, string[]> {
  if (graphCache) return graphCache;
  const g = new Map<string, string[]>();
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
  for (const f of sources(join(root, 'src'))) {
    const text = readFileSync(f, 'utf8');
    const to = new Set<string>();
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const r = resolveImport(f, m[1]!);
      if (r && r.startsWith(join(root, 'src'))) to.add(relative(root, r));
    }
    g.set(relative(root, f), [...to]);
  }
  graphCache = g;
  return g;
}

describe('layering', () => {
  for (const room of ['src/report', 'src/formatters', 'src/compare']) {
    it(`${room} imports nothing from src/engine`, () => {
      const files = sources(join(root, room));
      expect(files.length).toBeGreaterThan(0);
      const bad: string[] = [];
      for (const f of files) {
        for (const s of importsOf(f)) if (s.startsWith('src/engine/') || s === 'src/engine') bad.push(`${relative(root, f)} → ${s}`);
      }
      expect(bad).toEqual([]);
    });
  }

  it('no import circle among the modules of src/ (each circle is named by its files)', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(importCircles(graph).map((c) => `circle: ${c.join(', ')}`)).toEqual([]);
  });

  it('the circle finder names every file of a circle, and nothing outside one', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c', 'd']],
      ['c', ['a']],
      ['d', ['e']],
      ['e', []],
      ['s', ['s']],
    ]);
    expect(importCircles(g)).toEqual([['a', 'b', 'c'], ['s']]);
  });

  it('the import graph sees type-only imports and re-exports', () => {
    const g = importGraph();
    expect(g.get('src/profiles/types.ts')).toContain('src/input/sources.ts');
    expect(g.get('src/index.ts')).toContain('src/compare/index.ts');
  });

  it('the scan sees engine imports where they exist', () => {
    expect(importsOf(join(root, 'src/pass/engine.ts'))).toContain('src/engine/engine.js');
  });
});
