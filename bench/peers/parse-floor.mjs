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
import { createReadStream } from 'node:fs';
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

for (const file of process.argv.slice(2)) {
  let carry = null;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    let pos = 0;
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
      const nl = chunk.indexOf(10, pos);
      if (nl === -1) break;
      line(chunk, pos, nl);
      pos = nl + 1;
    }
    if (pos < chunk.length) carry = Buffer.from(chunk.subarray(pos));
  }
  if (carry) line(carry, 0, carry.length);
}
console.log(JSON.stringify({ lines, objects, malformed }));
