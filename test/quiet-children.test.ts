/**
 * A passing `npm test` is quiet: a child started with execFileSync/execSync writes its stderr to
 * the test run's own stderr unless the call names `stdio`, so every such call that runs the
 * callpair binary (whose verdict line, `callpair: gate passed …`, is on stderr) must name it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

/** The text of each execFileSync/execSync call in `src`: from its name to the matching `)`. */
function calls(src: string): string[] {
  const out: string[] = [];
  for (const m of src.matchAll(/\bexec(?:File)?Sync\(/g)) {
    let depth = 0;
    let i = m.index + m[0].length - 1;
    for (; i < src.length; i++) {
      if (src[i] === '(') depth++;
      else if (src[i] === ')' && --depth === 0) break;
    }
    out.push(src.slice(m.index, i + 1));
  }
  return out;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : testFiles(p);
    return /\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

describe('quiet test runs', () => {
  it('every execFileSync/execSync of the callpair binary in a test keeps its stderr out of the test output', () => {
    const loud: string[] = [];
    let seen = 0;
    for (const file of [...testFiles(path.join(ROOT, 'test')), ...testFiles(path.join(ROOT, 'src'))]) {
      for (const call of calls(readFileSync(file, 'utf8'))) {
        if (!/\bBIN\b/.test(call)) continue;
        seen++;
        // A shell script that sends its own stderr away (2>…) is quiet too.
        if (!/\bstdio\b/.test(call) && !/2>/.test(call)) loud.push(`${path.relative(ROOT, file)}: ${call.slice(0, 120)}`);
      }
    }
    expect(seen).toBeGreaterThan(3);
    expect(loud).toEqual([]);
  });
});
