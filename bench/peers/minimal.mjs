#!/usr/bin/env node
/**
 * The floor for any analyzer written in JavaScript: find the lines of a JSONL file in Buffers,
 * test the needles on bytes, JSON.parse the lines that match (and look at their event name).
 * Nothing else: no pairing, no report.
 */
import { createReadStream } from 'node:fs';

const NEEDLES = ['"llm:', '"provider:'].map((s) => Buffer.from(s));
let lines = 0;
let parsed = 0;
let family = 0;
let carry = null;

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

for await (const chunk of createReadStream(process.argv[2], { highWaterMark: 1 << 20 })) {
  let pos = 0;
  let buf = chunk;
  if (carry) {
    const nl = chunk.indexOf(10);
    if (nl === -1) {
      carry = Buffer.concat([carry, chunk]);
      continue;
    }
    const l = Buffer.concat([carry, chunk.subarray(0, nl)]);
    carry = null;
    line(l, 0, l.length);
    pos = nl + 1;
  }
  for (;;) {
    const nl = buf.indexOf(10, pos);
    if (nl === -1) break;
    line(buf, pos, nl);
    pos = nl + 1;
  }
  if (pos < buf.length) carry = Buffer.from(buf.subarray(pos));
}
if (carry) line(carry, 0, carry.length);
console.log(JSON.stringify({ lines, parsed, family }));
