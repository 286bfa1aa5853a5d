/**
 * Whether a file holds a byte string anywhere (gzip detected by its magic bytes), read as a stream
 * and stopped at the first hit: a cheap look before the pass, e.g. "does this --upstream log hold
 * any JSON-RPC message at all?".
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';

export async function fileContains(file: string, needle: Buffer): Promise<boolean> {
  const head = await new Promise<Buffer>((resolve) => {
    const s = createReadStream(file, { start: 0, end: 1 });
    const parts: Buffer[] = [];
    s.on('data', (b) => parts.push(b as Buffer));
    s.on('error', () => resolve(Buffer.alloc(0)));
    s.on('end', () => resolve(Buffer.concat(parts)));
  });
  const raw = createReadStream(file);
  const gz = head.length === 2 && head[0] === 0x1f && head[1] === 0x8b;
  const stream: NodeJS.ReadableStream = gz ? raw.pipe(createGunzip()) : raw;
  let tail: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const buf = tail.length ? Buffer.concat([tail, chunk]) : chunk;
      if (buf.includes(needle)) return true;
      tail = buf.subarray(Math.max(0, buf.length - needle.length + 1));
    }
    return false;
  } catch {
    // Unreadable or corrupt: the pass itself reports it; here it counts as "may hold it".
    return true;
  } finally {
    raw.destroy();
  }
}
