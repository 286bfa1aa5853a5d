#!/usr/bin/env node
/**
 * Makes N shard reports for measuring `callpair merge` (docs/scale-out.md):
 *   node bench/merge-shards.mjs DIR [N=10000] [MAX_FINDINGS=1000]
 *   /usr/bin/time -v node dist/cli/main.js merge DIR/*.json -o merged.json
 * Twenty real reports (analyze of generated captures, a few sessions each, with orphans, crossed
 * pairs and latencies) are cloned with distinct paths and session names, so the shards are
 * scope-disjoint like a real sharded run. MAX_FINDINGS is each shard's `--max-findings`: the findings
 * listed are most of a report's bytes (~80 of its 88 KB), the scopes and inputs merge whatever it is.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../dist/analyze.js';
import { safeJson } from '../dist/formatters/json.js';

const dir = process.argv[2];
const n = Number(process.argv[3] ?? 10_000);
const maxFindings = Number(process.argv[4] ?? 1000);
if (!dir) {
  console.error('usage: node bench/merge-shards.mjs DIR [N]');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
/** A small capture: `sessions` sessions of ~40 calls, overlapping (crossed pairs), a few never answered. */
function generateCapture(sessions, seed) {
  let a = seed >>> 0;
  const rnd = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const ev = [];
  for (let s = 0; s < sessions; s++) {
    let t = Date.parse('2026-10-01T08:00:00Z') + s * 1000;
    for (let c = 0; c < 40; c++) {
      const id = `${seed}-${s}-${c}-0000-4000`;
      const caller = rnd() < 0.3 ? 'summarizer' : 'agent';
      const model = caller === 'agent' ? 'm-big' : 'm-small';
      const rec = (event, at) => ({ ts: new Date(at).toISOString(), event, session_id: `sess-${s}`, request_id: id, ...(event === 'llm:response' ? { status: 'ok' } : {}), data: { provider: 'p', model, caller } });
      ev.push([t, ev.length, rec('llm:request', t)]);
      if (rnd() > 0.03) ev.push([t + 50 + Math.floor(rnd() * 3000), ev.length, rec('llm:response', 0)]);
      t += 20 + Math.floor(rnd() * 800);
    }
  }
  ev.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return ev.map(([at, , r]) => JSON.stringify({ ...r, ts: new Date(at).toISOString() })).join('\n') + '\n';
}
const templates = [];
for (let k = 0; k < 20; k++) {
  const file = path.join(dir, `tmpl-${k}.jsonl`);
  writeFileSync(file, generateCapture(3, 1000 + k));
  const r = await analyze({ inputs: [file], maxFindings });
  templates.push({ text: safeJson(r), file });
}
for (let i = 0; i < n; i++) {
  const t = templates[i % templates.length];
  const tag = String(i).padStart(6, '0');
  const text = t.text.split(t.file).join(`captures/shard-${tag}.jsonl`).split('"sess-').join(`"s${tag}-`);
  writeFileSync(path.join(dir, `r-${tag}.json`), text);
}
console.error(`${n} shard reports in ${dir}`);
