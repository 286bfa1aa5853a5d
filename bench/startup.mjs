#!/usr/bin/env node
/**
 * Start-up (issue 13): `callpair analyze fixtures/seed-trace.jsonl` against `node -e 0`, measured
 * back to back, interleaved (load drift hits every command alike), `--runs` times each (default
 * 10); prints the median wall time of each, and the ratio to `node -e 0` (the target: ≤ 2×).
 *
 *   node bench/startup.mjs [--runs N] [--bin DIST_MAIN_JS] [--base DIST_MAIN_JS]
 *
 * `--base` adds the rows of another build (a copy of an older dist/) for before/after.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const a = { runs: 10, bin: path.join(ROOT, 'dist', 'cli', 'main.js'), base: null };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const k = argv[i];
  if (k === '--runs') a.runs = Number(argv[++i]);
  else if (k === '--bin') a.bin = path.resolve(argv[++i]);
  else if (k === '--base') a.base = path.resolve(argv[++i]);
  else {
    console.error('usage: startup.mjs [--runs N] [--bin DIST_MAIN_JS] [--base DIST_MAIN_JS]');
    process.exit(2);
  }
}
if (!existsSync(a.bin)) {
  console.error(`${path.relative(ROOT, a.bin)} is missing: run npm run build first`);
  process.exit(1);
}

const node = process.execPath;
const seed = path.join(ROOT, 'fixtures', 'seed-trace.jsonl');
const cmds = [
  { name: 'node -e 0', argv: ['-e', '0'] },
  { name: 'callpair --version', argv: [a.bin, '--version'] },
  { name: 'callpair analyze fixtures/seed-trace.jsonl', argv: [a.bin, 'analyze', seed] },
  ...(a.base
    ? [
        { name: 'before: callpair --version', argv: [a.base, '--version'] },
        { name: 'before: callpair analyze fixtures/seed-trace.jsonl', argv: [a.base, 'analyze', seed] },
      ]
    : []),
];

function once(args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(node, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'ignore'] });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')}: exit ${r.status}`);
  return wall;
}
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// One warm-up round (the file cache), not counted.
for (const c of cmds) once(c.argv);
const times = cmds.map(() => []);
const loadBefore = loadavg()[0];
for (let r = 0; r < a.runs; r++) cmds.forEach((c, i) => times[i].push(once(c.argv)));
const loadAfter = loadavg()[0];

const floor = median(times[0]);
console.log(`Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}; ${a.runs} runs each, interleaved`);
console.log('');
console.log('| command | median wall | min | × node -e 0 |');
console.log('|---|---:|---:|---:|');
cmds.forEach((c, i) => {
  const m = median(times[i]);
  console.log(`| \`${c.name}\` | ${(m * 1000).toFixed(0)} ms | ${(Math.min(...times[i]) * 1000).toFixed(0)} ms | ${(m / floor).toFixed(2)}× |`);
});
const ratio = median(times[2]) / floor;
console.log('');
console.log(`analyze / node -e 0 = ${ratio.toFixed(2)}× (target ≤ 2×: ${ratio <= 2 ? 'met' : 'missed'})`);
