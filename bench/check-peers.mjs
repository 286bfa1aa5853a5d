#!/usr/bin/env node
/**
 * Checks that each Python loop of bench/peers/ does callpair's job: on every call-dense shape of
 * bench/shapes.mjs (small files), the loop's counts equal those of callpair's JSON report.
 *   node bench/check-peers.mjs [--lines N] [--seed S] [--shapes a,b] [--bin DIST_MAIN_JS]
 * Exit 1 on any difference (each printed). bench/run.mjs runs the same check before timing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PEERS, SHAPES, reportCounts, writeShape } from './shapes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** callpair's counts and the Python loop's on one written shape: {shape, callpair, python, same}. */
export function checkShape(shape, written, bin = path.join(ROOT, 'dist', 'cli', 'main.js')) {
  const family = SHAPES[shape].family;
  if (!PEERS[family]) return null;
  const cp = spawnSync(process.execPath, [bin, 'analyze', '--format', 'json', '--max-findings', '0', ...written.args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (cp.status !== 0 && cp.status !== 1) throw new Error(`callpair exited ${cp.status} on ${shape}: ${cp.stderr.slice(0, 300)}`);
  const callpair = reportCounts(family, JSON.parse(cp.stdout));
  const python = peerCounts(shape, written);
  return { shape, callpair, python, same: JSON.stringify(callpair) === JSON.stringify(python) };
}

/** The counts of the shape family's Python loop on one written shape (null when it has none). */
export function peerCounts(shape, written) {
  const family = SHAPES[shape].family;
  if (!PEERS[family]) return null;
  const py = spawnSync('python3', [path.join(ROOT, 'bench', 'peers', PEERS[family]), ...written.args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (py.status !== 0) throw new Error(`${PEERS[family]} exited ${py.status} on ${shape}: ${py.stderr.slice(0, 300)}`);
  return JSON.parse(py.stdout);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const o = { lines: 4000, seed: 1, shapes: Object.keys(SHAPES), bin: undefined };
  const v = process.argv.slice(2);
  for (let i = 0; i < v.length; i++) {
    if (v[i] === '--lines') o.lines = Number(v[++i]);
    else if (v[i] === '--seed') o.seed = Number(v[++i]);
    else if (v[i] === '--shapes') o.shapes = v[++i].split(',');
    else if (v[i] === '--bin') o.bin = path.resolve(v[++i]);
    else throw new Error(`unknown argument ${v[i]}`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'callpair-peers-'));
  let bad = 0;
  for (const shape of o.shapes) {
    const r = checkShape(shape, writeShape(shape, { dir: path.join(dir, shape), lines: o.lines, seed: o.seed }), o.bin);
    if (!r) continue;
    console.log(`${r.same ? 'same' : 'DIFF'}  ${shape}${r.same ? '' : `\n  callpair ${JSON.stringify(r.callpair)}\n  python   ${JSON.stringify(r.python)}`}`);
    if (!r.same) bad++;
  }
  rmSync(dir, { recursive: true, force: true });
  process.exit(bad ? 1 : 0);
}
