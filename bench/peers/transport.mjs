#!/usr/bin/env node
/**
 * What `--jobs` can save the main thread on a call-dense capture (docs/performance.md, "--jobs").
 * With workers, a worker parses a line and prunes it to what the profiles read (`keep`); the main
 * thread still has to rebuild that value before the profiles and the engine see it. This measures,
 * per line and on one thread (medians of --runs, after a warm-up), what the main thread pays:
 *
 *   parse line        JSON.parse of the line (latin1 when ASCII): what `--jobs 1` pays;
 *   clone in          v8.deserialize of the pruned values, in batches of 10 000: what the main
 *                     thread pays for a worker's message (postMessage is V8's structured clone);
 *   JSON in           JSON.parse of the pruned values as JSON text (a worker could send text);
 *   clone out, JSON out   the worker's side of each.
 *
 * When "clone in" or "JSON in" is not well below "parse line", sending parsed values cannot make
 * `--jobs` faster than `--jobs 1`, however many cores there are.
 *
 *   npm run build && node bench/peers/transport.mjs FILE... [--keep amplifier|jsonrpc|batch|none] [--runs 5]
 */
import { readFileSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import v8 from 'node:v8';
import { applyKeep } from '../../dist/profiles/keep.js';
import { AMPLIFIER_KEEP } from '../../dist/profiles/amplifier.js';
import { JSONRPC_KEEP } from '../../dist/profiles/jsonrpc.js';
import { BATCH_KEEP } from '../../dist/profiles/openai-batch.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  if (i === -1) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const keepName = opt('--keep', 'amplifier');
const runs = Number(opt('--runs', '5'));
const SPECS = { amplifier: AMPLIFIER_KEEP, jsonrpc: JSONRPC_KEEP, batch: BATCH_KEEP, none: null };
if (!(keepName in SPECS) || args.length === 0) {
  console.error('usage: node bench/peers/transport.mjs FILE... [--keep amplifier|jsonrpc|batch|none] [--runs N]');
  process.exit(2);
}
const spec = SPECS[keepName];
const keep = spec ? (v) => applyKeep(spec, v) : (v) => v;

const text = [];
let bytes = 0;
for (const file of args) {
  const buf = readFileSync(file);
  bytes += buf.length;
  for (let s = 0; s < buf.length; ) {
    let e = buf.indexOf(10, s);
    if (e === -1) e = buf.length;
    const t = e > s && buf[e - 1] === 13 ? e - 1 : e;
    if (t > s) text.push(isAscii(buf.subarray(s, t)) ? buf.latin1Slice(s, t) : buf.toString('utf8', s, t));
    s = e + 1;
  }
}
const lines = text.length;
const BATCH = 10_000;
const values = [];
for (let i = 0; i < lines; i += BATCH) values.push(text.slice(i, i + BATCH).map((l) => keep(JSON.parse(l))));

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const time = (f) => {
  const t = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const sink = { n: 0 };
const cases = {
  'parse line': () => {
    for (const l of text) sink.n += JSON.parse(l) === null ? 0 : 1;
  },
  'clone out': () => {
    cloned = values.map((b) => v8.serialize(b));
  },
  'clone in': () => {
    for (const c of cloned) sink.n += v8.deserialize(c).length;
  },
  'JSON out': () => {
    json = values.map((b) => JSON.stringify(b));
  },
  'JSON in': () => {
    for (const j of json) sink.n += JSON.parse(j).length;
  },
};
let cloned = values.map((b) => v8.serialize(b));
let json = values.map((b) => JSON.stringify(b));
const took = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let r = 0; r <= runs; r++) {
  for (const [k, f] of Object.entries(cases)) {
    const ms = time(f);
    if (r > 0) took[k].push(ms);
  }
}
const jsonBytes = json.reduce((n, j) => n + j.length, 0);
console.log(`${lines} lines, ${(bytes / 1e6).toFixed(1)} MB; keep ${keepName}: pruned values as JSON ${(jsonBytes / 1e6).toFixed(1)} MB; medians of ${runs}`);
console.log('| step | ms | µs per line | ÷ parse line |');
console.log('|---|---:|---:|---:|');
const base = median(took['parse line']);
for (const k of Object.keys(cases)) {
  const m = median(took[k]);
  console.log(`| ${k} | ${m.toFixed(0)} | ${((m * 1000) / lines).toFixed(2)} | ${(m / base).toFixed(2)}× |`);
}
