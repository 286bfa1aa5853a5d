#!/usr/bin/env node
/**
 * The JSON report's writer alone (docs/performance.md, "What the cuts were" and "Memory"): a saved report
 * is read, then written again in pieces as the CLI writes it (src/formatters/json.ts `pieces`),
 * beside one `JSON.stringify(report, null, 2)` of the same value (the same text, as one string).
 * Medians of --runs, in one process, after a warm-up.
 *
 *   npm run build && node dist/cli/main.js analyze CAPTURE -f json -o report.json
 *   node bench/report-write.mjs report.json [--runs 5]
 */
import { readFileSync } from 'node:fs';
import { json } from '../dist/formatters/json.js';

const args = process.argv.slice(2);
const at = args.indexOf('--runs');
const runs = at === -1 ? 5 : Number(args.splice(at, 2)[1]);
if (args.length !== 1) {
  console.error('usage: node bench/report-write.mjs REPORT.json [--runs N]');
  process.exit(2);
}
const report = JSON.parse(readFileSync(args[0], 'utf8'));
const time = (f) => {
  const t = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
let chars = 0;
const took = { pieces: [], stringify: [] };
for (let r = 0; r <= runs; r++) {
  const a = time(() => {
    chars = 0;
    for (const p of json.pieces(report)) chars += p.length;
  });
  const b = time(() => JSON.stringify(report, null, 2));
  if (r > 0) {
    took.pieces.push(a);
    took.stringify.push(b);
  }
}
const scopes = (report.channels ?? []).reduce((n, c) => n + (c.scopes?.length ?? 0), 0);
console.log(`${args[0]}: ${(chars / 1e6).toFixed(1)} M characters, ${scopes} scopes listed; medians of ${runs}`);
console.log(`json pieces (what the CLI writes): ${median(took.pieces).toFixed(0)} ms`);
console.log(`JSON.stringify(report, null, 2):   ${median(took.stringify).toFixed(0)} ms`);
