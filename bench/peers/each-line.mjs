/**
 * The line loop the JavaScript peers share: read `file` in 1 MiB chunks and call `line(buf, s, e)`
 * for each line (`buf[s..e)`, without its `\n`; a line cut by a chunk is joined first).
 */
import { createReadStream } from 'node:fs';

export async function eachLine(file, line) {
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
