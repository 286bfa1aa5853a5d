/**
 * The CLI's young-generation cap (src/cli/memory.ts, docs/performance.md "Memory"): on a capture
 * long enough for V8 to grow its young generation past 8 MiB, the CLI's stays at 8 MiB, while the
 * library (which never changes the host's V8 flags) lets V8 grow it as usual.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, tmpDir } from './helpers.js';

/** Preloaded into the process measured: the largest young generation seen, on stderr at exit. */
const PRELOAD = `const v8 = require('v8'); let max = 0;
const f = () => { for (const s of v8.getHeapSpaceStatistics()) if (s.space_name === 'new_space') max = Math.max(max, s.space_size); };
setInterval(f, 5).unref();
process.on('exit', () => { f(); require('fs').writeSync(2, 'NEW_SPACE ' + max + '\\n'); });`;

function newSpace(args: string[]): number {
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  return Number(/NEW_SPACE (\d+)/.exec(r.stderr)?.[1]);
}

describe('the CLI caps V8 young generation growth', () => {
  it('keeps it at 8 MiB on a 100 MB capture; the library leaves V8 alone', () => {
    const dir = tmpDir();
    const file = path.join(dir, 'line-heavy.jsonl');
    execFileSync(process.execPath, [path.join(ROOT, 'bench', 'generate.mjs'), '--shape', 'line-heavy', '--size', '100', '--seed', '3', '--out', file], { stdio: 'ignore' });
    const preload = path.join(dir, 'spaces.cjs');
    writeFileSync(preload, PRELOAD);
    const cli = newSpace(['-r', preload, BIN, 'analyze', file, '-f', 'json', '-o', path.join(dir, 'r.json')]);
    const lib = newSpace(['-r', preload, '--input-type=module', '-e', `const { analyze } = await import(${JSON.stringify(path.join(ROOT, 'dist', 'index.js'))}); await analyze({ inputs: [${JSON.stringify(file)}] });`]);
    expect(cli).toBeGreaterThan(0);
    expect(cli).toBeLessThanOrEqual(8 << 20);
    expect(lib).toBeGreaterThan(8 << 20);
  }, 60_000);
});
