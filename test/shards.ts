/**
 * Captures written as scope-disjoint files, for the merge, scale-out and DuckDB tests.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateCapture, mulberry32 } from './generate.js';

const NAMES = ['a.jsonl', 'a-b.jsonl', 'a/x.jsonl', 'a/y/z.jsonl', 'b.jsonl', 'B.jsonl', 'c/d.jsonl', 'e.jsonl', 'f.jsonl', 'g.jsonl'];

/**
 * A capture of `sessions` scopes written into up to NAMES.length files (a session's lines stay in
 * one file, in order; a file may hold several sessions), with malformed and duplicated lines.
 */
export function writeShardedCapture(dir: string, seed: number, sessions: number, ids: boolean): string[] {
  const rnd = mulberry32(seed);
  const { lines } = generateCapture({ sessions, seed, ids, turns: [1, 6] });
  const fileOf = new Map<string, string>();
  const files = new Map<string, string[]>();
  for (const line of lines) {
    const sid = String((JSON.parse(line) as { session_id: string }).session_id);
    let f = fileOf.get(sid);
    if (!f) fileOf.set(sid, (f = NAMES[Math.floor(rnd() * NAMES.length)]!));
    let list = files.get(f);
    if (!list) files.set(f, (list = []));
    list.push(line);
    const r = rnd();
    if (r < 0.01) list.push('{"event":"llm:response", broken');
    else if (r < 0.02) list.push(line); // an exact duplicate line
  }
  const out: string[] = [];
  for (const [name, list] of files) {
    const p = path.join(dir, name);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, `${list.join('\n')}\n`);
    out.push(p);
  }
  return out.sort();
}

