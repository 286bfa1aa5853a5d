#!/usr/bin/env node
/**
 * The floor of a reader that parses every line: read the files in 1 MiB chunks, find each line,
 * `JSON.parse` it (decoded as latin1 when it is ASCII, the cheapest exact decoding, else UTF-8)
 * and look at one key. No classification, no pairing, no report. On a call-dense capture every
 * line is a call, so any tool that validates each line with `JSON.parse` costs at least this
 * (bench/run.mjs prints it beside each call-dense shape; docs/performance.md).
 *
 *   node bench/peers/parse-floor.mjs FILE...
 */
import { eachLine } from './each-line.mjs';
import { isAscii } from 'node:buffer';

let lines = 0;
let objects = 0;
let malformed = 0;

function line(buf, s, e) {
  if (e > s && buf[e - 1] === 13) e--;
  if (e === s) return;
  lines++;
  try {
    const v = JSON.parse(isAscii(buf.subarray(s, e)) ? buf.latin1Slice(s, e) : buf.toString('utf8', s, e));
    if (v !== null && typeof v === 'object' && v.id !== 1e300) objects++;
  } catch {
    malformed++;
  }
}

for (const file of process.argv.slice(2)) await eachLine(file, line);
console.log(JSON.stringify({ lines, objects, malformed }));
