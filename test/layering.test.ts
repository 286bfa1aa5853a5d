/**
 * The rooms' boundaries: report, formatters and compare read the engine's plain-data snapshot
 * (src/model/snapshot.ts), never an engine class or module.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
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

  it('the scan sees engine imports where they exist', () => {
    expect(importsOf(join(root, 'src/analyze.ts'))).toContain('src/engine/engine.js');
  });
});
