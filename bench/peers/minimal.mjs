#!/usr/bin/env node
/**
 * The floor for any analyzer written in JavaScript: find the lines of a JSONL file in Buffers,
 * test the needles on bytes, JSON.parse the lines that match (and look at their event name).
 * Nothing else: no pairing, no report.
 */
import { eachLine } from './each-line.mjs';

const NEEDLES = ['"llm:', '"provider:'].map((s) => Buffer.from(s));
let lines = 0;
let parsed = 0;
let family = 0;

function line(buf, s, e) {
  lines++;
  const view = buf.subarray(s, e);
  let hit = false;
  for (const n of NEEDLES) if (view.indexOf(n) !== -1) { hit = true; break; }
  if (!hit) return;
  try {
    const v = JSON.parse(buf.toString('utf8', s, e));
    parsed++;
    if (v && typeof v.event === 'string' && (v.event.startsWith('llm:') || v.event.startsWith('provider:'))) family++;
  } catch {
    /* malformed */
  }
}

await eachLine(process.argv[2], line);
console.log(JSON.stringify({ lines, parsed, family }));
