#!/usr/bin/env node
/**
 * `npm run bench`: per capture shape, every command several times (interleaved, so load drift
 * hits all alike); medians of wall time, CPU (user+sys) and peak RSS; speed-ups over the Python
 * loop doing the same job, measured in the same run; then the start-up table.
 *
 *   node bench/run.mjs [--shapes a,b,…] [--size MB] [--lines N] [--runs N] [--seed N] [--out DIR]
 *                      [--commands analyze,compare,pairs,trace,merge] [--file FILE] [--jobs N]
 *                      [--base DIST_MAIN_JS] [--no-startup] [--quick]
 *
 * Two kinds of shape. The call-dense shapes of bench/shapes.mjs (the default: `--shapes calls`,
 * or any of `node bench/shapes.mjs --list`) are made of calls: each is written at N lines and 2N
 * (`--lines N` for all, else each shape's own N; `--quick`: N = 10 000, one run), the family's
 * Python loop (bench/peers/pair_*.py) is first checked to count what callpair counts (on a small
 * copy), then analyze, compare, pairs, trace (of a terminal in the middle) and merge (of the
 * reports of 4 shards of the same size, made beforehand) run on both sizes; the table gives, per
 * command, wall and CPU at N and 2N, the growth (CPU at 2N ÷ CPU at N), µs of CPU per call event
 * (requests + terminals, at 2N) and the speed-up of callpair over the Python loop (wall and CPU, 2N);
 * a last row, `parse floor`, is bench/peers/parse-floor.mjs (read and JSON.parse every line, nothing else).
 * The classic shapes `mix`, `line-heavy`, `raw-heavy` (`--shapes classic`; sized in MB by
 * `--size`, default 300; `--quick`: 30) compare analyze with the Python FIFO loop, jq, a minimal
 * Node reader and cat.
 *
 * Captures are generated (seeded) into `--out` (default bench/out/, gitignored) unless they
 * exist. `--base` adds the rows of another build (e.g. a copy of an older dist/) for before/after.
 * Peak RSS and CPU come from GNU time (`/usr/bin/time -f %M`); without it they are left out.
 * A peer whose program is not installed (python3, jq) is skipped, and the table says so.
 */
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, statSync, readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PEERS, SHAPES, writeShape } from './shapes.mjs';
import { checkShape } from './check-peers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLASSIC = ['mix', 'line-heavy', 'raw-heavy'];
const CALLS = Object.keys(SHAPES).filter((k) => !/^amp-d(10|60)-(all|none)$/.test(k));
const a = { size: 300, runs: null, lines: null, quick: false, seed: 1, file: null, jobs: null, shapes: CALLS, base: null, startup: true, out: null, commands: ['analyze', 'compare', 'pairs', 'trace', 'merge'] };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const k = argv[i];
  if (k === '--size') a.size = Number(argv[++i]);
  else if (k === '--runs') a.runs = Number(argv[++i]);
  else if (k === '--seed') a.seed = Number(argv[++i]);
  else if (k === '--file') a.file = argv[++i];
  else if (k === '--jobs') a.jobs = Number(argv[++i]);
  else if (k === '--shapes')
    a.shapes = argv[++i]
      .split(',')
      .flatMap((x) => (x === 'classic' ? CLASSIC : x === 'calls' ? CALLS : x === 'all' ? [...CALLS, ...CLASSIC] : [x]))
      .filter((x) => x && x !== 'none');
  else if (k === '--lines') a.lines = Number(argv[++i]);
  else if (k === '--out') a.out = path.resolve(argv[++i]);
  else if (k === '--commands') a.commands = argv[++i].split(',');
  else if (k === '--base') a.base = path.resolve(argv[++i]);
  else if (k === '--no-startup') a.startup = false;
  else if (k === '--quick') (a.size = 30), (a.quick = true);
  else {
    console.error('usage: run.mjs [--shapes calls|classic|all|a,b,…] [--size MB] [--lines N] [--runs N] [--seed N] [--out DIR] [--commands analyze,…] [--file FILE] [--jobs N] [--base DIST_MAIN_JS] [--no-startup] [--quick]');
    process.exit(2);
  }
}
a.runs ??= a.quick ? (a.shapes.some((x) => CLASSIC.includes(x)) ? 3 : 1) : a.shapes.some((x) => CLASSIC.includes(x)) ? 5 : 3;
const OUT = a.out ?? path.join(ROOT, 'bench', 'out');
for (const x of a.shapes)
  if (!CLASSIC.includes(x) && !SHAPES[x]) {
    console.error(`unknown shape ${x}: one of calls, classic, all, ${[...CLASSIC, ...Object.keys(SHAPES)].join(', ')}`);
    process.exit(2);
  }

const bin = path.join(ROOT, 'dist', 'cli', 'main.js');
if (!existsSync(bin)) {
  console.error('dist/ is missing: run npm run build first');
  process.exit(1);
}
function has(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
/**
 * The Python interpreter itself, not the `python3` found on PATH: a version manager's shim there
 * (pyenv's is a bash script) adds about half a second of CPU to every run it starts, which the
 * loop's time would otherwise include.
 */
const PYTHON = has('python3') ? spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim() || 'python3' : 'python3';
const parallelJobs = a.jobs ?? Math.max(2, Math.min(availableParallelism(), 4));
const JQ_FILTER =
  'select(.event == "llm:request" or .event == "llm:response" or .event == "provider:error" or .event == "provider:retry" or .event == "provider:throttle")';
const tmp = mkdtempSync(path.join(tmpdir(), 'callpair-bench-'));
const node = process.execPath;

function runOnce(argv) {
  return new Promise((resolve) => {
    const timeFile = path.join(tmp, 'time.txt');
    const cmd = GNU_TIME ? [GNU_TIME, '-f', '%M %U %S', '-o', timeFile, ...argv] : argv;
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd[0], cmd.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - t0) / 1e9;
      let rss = null;
      let cpu = null;
      if (GNU_TIME) {
        const m = /(\d+) ([\d.]+) ([\d.]+)\s*$/.exec(readFileSync(timeFile, 'utf8').trim());
        if (m) {
          rss = Number(m[1]) * 1024;
          cpu = Number(m[2]) + Number(m[3]);
        }
      }
      resolve({ wall, rss, cpu, code, err });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const mb = (n) => (n === null ? 'n/a' : `${Math.round(n / 1048576)} MB`);
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

/** Runs every command `runs` times, interleaved; returns rows of medians. */
async function measure(commands, runs, label) {
  const results = new Map(commands.map((p) => [p.name, { walls: [], rss: [], cpu: [] }]));
  for (let r = 0; r < runs; r++) {
    for (const p of commands) {
      const x = await runOnce(p.argv);
      const ok = x.code === 0 || (p.gate && x.code === 1);
      if (!ok) console.error(`${p.name} exited ${x.code}: ${x.err.slice(0, 300)}`);
      const res = results.get(p.name);
      res.walls.push(x.wall);
      if (x.rss !== null) res.rss.push(x.rss);
      if (x.cpu !== null) res.cpu.push(x.cpu);
      if (label) console.error(`  ${label} run ${r + 1}/${runs} ${p.name}: ${x.wall.toFixed(3)} s`);
    }
  }
  return commands.map((p) => {
    const r = results.get(p.name);
    return { name: p.name, wall: median(r.walls), rss: r.rss.length ? median(r.rss) : null, cpu: r.cpu.length ? median(r.cpu) : null };
  });
}

const out = [];
const say = (s) => {
  out.push(s);
  console.log(s);
};
say(`# callpair bench: ${a.runs} runs each (medians), ${availableParallelism()} cores, load at start ${load()}; Python: ${PYTHON}`);

for (const shape of a.file ? ['file'] : a.shapes) {
  if (!a.file && !CLASSIC.includes(shape)) {
    await callDense(shape);
    continue;
  }
  const file = a.file ?? path.join(OUT, `${shape === 'mix' ? 'capture' : shape}-${a.size}mb-s${a.seed}.jsonl`);
  if (!existsSync(file)) {
    console.error(`generating ${path.relative(ROOT, file)} …`);
    const g = spawnSync(node, [path.join(ROOT, 'bench', 'generate.mjs'), '--size', String(a.size), '--seed', String(a.seed), '--shape', shape, '--out', file], {
      stdio: 'inherit',
    });
    if (g.status !== 0) process.exit(1);
  }
  const bytes = statSync(file).size;
  const lines = Number(spawnSync('wc', ['-l', file], { encoding: 'utf8' }).stdout.trim().split(/\s+/)[0]) || null;
  const peers = [
    { name: 'callpair (default --jobs)', argv: [node, bin, 'analyze', '--format', 'json', file], gate: true },
    { name: 'callpair --jobs 1', argv: [node, bin, 'analyze', '--format', 'json', '--jobs', '1', file], gate: true },
    { name: `callpair --jobs ${parallelJobs}`, argv: [node, bin, 'analyze', '--format', 'json', '--jobs', String(parallelJobs), file], gate: true },
    ...(a.base
      ? [
          { name: 'before: callpair --jobs 1', argv: [node, a.base, 'analyze', '--format', 'json', '--jobs', '1', file], gate: true },
          { name: `before: callpair --jobs ${parallelJobs}`, argv: [node, a.base, 'analyze', '--format', 'json', '--jobs', String(parallelJobs), file], gate: true },
        ]
      : []),
    { name: 'python json.loads loop', argv: [PYTHON, path.join(ROOT, 'bench', 'peers', 'fifo_pair.py'), file], needs: 'python3', python: true },
    { name: 'jq select (LLM family)', argv: ['jq', '-c', JQ_FILTER, file], needs: 'jq', jq: true },
    { name: 'minimal Node reader', argv: [node, path.join(ROOT, 'bench', 'peers', 'minimal.mjs'), file] },
    { name: 'cat > /dev/null', argv: ['cat', file], needs: 'cat' },
  ];
  const skipped = [];
  const active = peers.filter((p) => {
    if (p.needs && !has(p.needs)) {
      skipped.push(`${p.name}: ${p.needs} is not installed, skipped`);
      return false;
    }
    return true;
  });
  spawnSync('cat', [file], { stdio: 'ignore' }); // warm the page cache
  const loadBefore = load();
  const rows = await measure(active, a.runs, shape);
  const py = rows.find((r) => active.find((p) => p.name === r.name)?.python)?.wall ?? null;
  const jq = rows.find((r) => active.find((p) => p.name === r.name)?.jq)?.wall ?? null;
  const x = (ref, w) => (ref === null ? 'n/a' : `${(ref / w).toFixed(2)}×`);
  say('');
  say(
    `## ${shape}: ${path.relative(ROOT, file)}, ${(bytes / 1048576).toFixed(1)} MB, ${lines ?? '?'} lines (${lines ? Math.round(bytes / lines) : '?'} B/line); load ${loadBefore} → ${load()}`,
  );
  say('');
  say('| command | median wall | MB/s | CPU (user+sys) | peak RSS | speed-up vs Python | vs jq |');
  say('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows)
    say(
      `| ${r.name} | ${r.wall.toFixed(2)} s | ${(bytes / 1048576 / r.wall).toFixed(0)} | ${r.cpu === null ? 'n/a' : r.cpu.toFixed(2) + ' s'} | ${mb(r.rss)} | ${x(py, r.wall)} | ${x(jq, r.wall)} |`,
    );
  for (const s of skipped) say(`\n${s}`);
}

/** Default N (lines) of a call-dense shape, or --lines / --quick. */
function linesOf(shape) {
  // custom6 pairs by signature masks only (no id): --lines is kept small for it.
  if (a.lines) return shape === 'custom6' ? Math.min(a.lines, 500) : a.lines;
  if (a.quick) return shape === 'custom6' ? 500 : 10_000;
  return SHAPES[shape].lines;
}

/** The rows of one call-dense shape: every command at N and 2N, the Python loop, growth, µs per call event. */
async function callDense(shape) {
  const info = SHAPES[shape];
  const n = linesOf(shape);
  const peer = PEERS[info.family] ? path.join(ROOT, 'bench', 'peers', PEERS[info.family]) : null;
  // The peer must do callpair's job: the same counts on a small copy (else its time means nothing).
  if (peer && has('python3')) {
    const c = checkShape(shape, writeShape(shape, { dir: path.join(tmp, `check-${shape}`), lines: 3000, seed: a.seed }), bin);
    if (!c.same) {
      console.error(`${shape}: ${PEERS[info.family]} does not count what callpair counts:\n  callpair ${JSON.stringify(c.callpair)}\n  python   ${JSON.stringify(c.python)}`);
      process.exit(1);
    }
  }
  const sizes = [];
  for (const lines of [n, 2 * n]) {
    const dir = path.join(OUT, 'calls', `${shape}-${lines}-s${a.seed}`);
    console.error(`writing ${path.relative(ROOT, dir)} …`);
    const w = writeShape(shape, { dir, lines, seed: a.seed });
    const shards = [];
    const mergeable = info.family !== 'assay' && a.commands.includes('merge');
    for (let k = 0; mergeable && k < 4; k++) {
      const sw = writeShape(shape, { dir: path.join(dir, `shard-${k}`), lines: Math.ceil(lines / 4), seed: a.seed * 100 + k });
      const report = path.join(dir, `shard-${k}`, 'report.json');
      // One profile file for all shards (reports of different profiles do not merge).
      const args = sw.profile && w.profile ? sw.args.map((x) => (x === sw.profile ? w.profile : x)) : sw.args;
      spawnSync(node, [bin, 'analyze', '--format', 'json', '-o', report, ...args], { stdio: 'ignore' });
      shards.push(report);
    }
    sizes.push({ lines, w, shards, bytes: w.files.reduce((t, f) => t + statSync(f).size, 0) });
  }
  const builds = [{ label: '', bin }, ...(a.base ? [{ label: 'before: ', bin: a.base }] : [])];
  const commands = [];
  for (const b of builds)
    for (const c of a.commands)
      for (const [k, z] of sizes.entries()) {
        const argv =
          c === 'analyze' ? ['analyze', '--format', 'json', '--jobs', '1', ...z.w.args]
          : c === 'compare' ? ['compare', '--format', 'json', '--jobs', '1', ...z.w.args]
          : c === 'pairs' ? ['pairs', '--jobs', '1', ...z.w.args]
          : c === 'trace' ? ['trace', z.w.trace, '--format', 'json', '--jobs', '1', ...z.w.args]
          : z.shards.length ? ['merge', ...z.shards] : null;
        if (argv) commands.push({ name: `${b.label}${c}`, size: k, argv: [node, b.bin, ...argv], gate: true });
      }
  if (peer && has('python3')) for (const [k, z] of sizes.entries()) commands.push({ name: `python ${PEERS[info.family]}`, size: k, argv: [PYTHON, peer, ...z.w.args], python: true });
  // The floor of any reader that JSON.parses every line (no pairing): what a call-dense capture costs at least.
  for (const [k, z] of sizes.entries()) commands.push({ name: 'parse floor (JSON.parse every line)', size: k, argv: [node, path.join(ROOT, 'bench', 'peers', 'parse-floor.mjs'), ...z.w.files] });
  for (const c of commands) c.key = `${c.name}@${c.size}`;
  for (const z of sizes) spawnSync('cat', z.w.files, { stdio: 'ignore' }); // warm the page cache
  const loadBefore = load();
  const rows = await measure(commands.map((c) => ({ ...c, name: c.key })), a.runs, shape);
  const at = (key) => rows.find((r) => r.name === key) ?? null;
  const [s1, s2] = sizes;
  say('');
  say(
    `## ${shape}: ${info.what}; N = ${s1.lines} lines (${(s1.bytes / 1048576).toFixed(1)} MB, ${s1.w.calls} call events), 2N = ${s2.w.lines} lines (${(s2.bytes / 1048576).toFixed(1)} MB, ${s2.w.calls} call events); load ${loadBefore} → ${load()}`,
  );
  if (!peer) say(`\n(no Python loop for the ${info.family} family)`);
  if (info.family === 'assay' && a.commands.includes('merge')) say('\n(merge: reports of Assay runs do not merge, the audit spans files)');
  say('');
  say('| command | wall N | CPU N | wall 2N | CPU 2N | growth (CPU 2N ÷ N) | µs CPU per call event (2N) | peak RSS 2N | vs Python (wall 2N) | vs Python (CPU 2N) |');
  say('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const py = commands.find((c) => c.python && c.size === 1);
  const pyWall = py ? at(py.key)?.wall ?? null : null;
  const pyCpu = py ? at(py.key)?.cpu ?? null : null;
  const names = [...new Set(commands.map((c) => c.name))];
  const f = (x, d = 2) => (x === null || x === undefined ? 'n/a' : `${x.toFixed(d)} s`);
  for (const name of names) {
    const r1 = at(`${name}@0`);
    const r2 = at(`${name}@1`);
    const t1 = r1?.cpu ?? r1?.wall ?? null;
    const t2 = r2?.cpu ?? r2?.wall ?? null;
    const growth = t1 && t2 ? `${(t2 / t1).toFixed(2)}×` : 'n/a';
    const us = t2 !== null && s2.w.calls > 0 ? ((t2 / s2.w.calls) * 1e6).toFixed(1) : 'n/a';
    const ratio = pyWall !== null && r2 ? `${(pyWall / r2.wall).toFixed(2)}×` : 'n/a';
    const cpuRatio = pyCpu !== null && r2?.cpu ? `${(pyCpu / r2.cpu).toFixed(2)}×` : 'n/a';
    say(`| ${name} | ${f(r1?.wall)} | ${f(r1?.cpu)} | ${f(r2?.wall)} | ${f(r2?.cpu)} | ${growth} | ${us} | ${mb(r2?.rss ?? null)} | ${ratio} | ${cpuRatio} |`);
  }
}

if (a.startup) {
  const seed = path.join(ROOT, 'fixtures', 'seed-trace.jsonl');
  const cmds = [
    { name: 'node -e 0', argv: [node, '-e', '0'] },
    { name: 'callpair --version', argv: [node, bin, '--version'] },
    { name: 'callpair analyze fixtures/seed-trace.jsonl', argv: [node, bin, 'analyze', seed], gate: true },
    ...(a.base
      ? [
          { name: 'before: callpair --version', argv: [node, a.base, '--version'] },
          { name: 'before: callpair analyze fixtures/seed-trace.jsonl', argv: [node, a.base, 'analyze', seed], gate: true },
        ]
      : []),
  ];
  const loadBefore = load();
  const rows = await measure(cmds, Math.max(a.runs * 2, 10), null);
  const base = rows[0].wall;
  say('');
  say(`## start-up (${Math.max(a.runs * 2, 10)} runs each, medians; load ${loadBefore} → ${load()})`);
  say('');
  say('| command | median wall | peak RSS | ÷ node -e 0 |');
  say('|---|---:|---:|---:|');
  for (const r of rows) say(`| ${r.name} | ${(r.wall * 1000).toFixed(0)} ms | ${mb(r.rss)} | ${(r.wall / base).toFixed(2)}× |`);
}
rmSync(tmp, { recursive: true, force: true });
