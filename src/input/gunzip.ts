/**
 * gzip, member by member (docs/inputs.md): every member of a concatenated stream is read (as
 * `zcat` does); a fault (plain bytes after a member, a corrupt or truncated member, a failed CRC)
 * keeps everything decompressed before it and is reported with its compressed byte offset.
 *
 * Node's Gunzip handles several members but drops its last output buffer when garbage follows
 * one, and cannot say where the fault is; so each member's header and trailer are read here and
 * its deflate data goes through an InflateRaw, whose `bytesWritten` is the compressed bytes it
 * consumed (the member's end).
 */
import { zlib } from '../builtins.js';

/** Bytes pulled from an async iterator on demand, with the absolute offset of the first one. */
export class ByteSource {
  private parts: Buffer[] = [];
  private len = 0;
  /** Offset (in the whole input) of the first byte held. */
  offset = 0;
  eof = false;

  constructor(private readonly it: AsyncIterator<Buffer>) {}

  get length(): number {
    return this.len;
  }

  /** Reads until at least `n` bytes are held or the input ends. */
  async fill(n: number): Promise<void> {
    while (this.len < n && !this.eof) {
      const r = await this.it.next();
      if (r.done) {
        this.eof = true;
        break;
      }
      const b = Buffer.isBuffer(r.value) ? r.value : Buffer.from(r.value as unknown as string);
      if (b.length === 0) continue;
      this.parts.push(b);
      this.len += b.length;
    }
  }

  /** The first `n` held bytes (n ≤ length), without removing them. */
  peek(n: number): Buffer {
    if (this.parts.length > 1 && this.parts[0]!.length < n) this.parts = [Buffer.concat(this.parts, this.len)];
    return this.parts[0]!.subarray(0, n);
  }

  /** Removes and returns up to `n` held bytes (at least one part's worth when n is large). */
  take(n: number): Buffer {
    const head = this.parts[0]!;
    let out: Buffer;
    if (head.length <= n) {
      out = head;
      this.parts.shift();
    } else {
      out = head.subarray(0, n);
      this.parts[0] = head.subarray(n);
    }
    this.len -= out.length;
    this.offset += out.length;
    return out;
  }

  /** Puts bytes back in front (bytes taken but not consumed). */
  unshift(b: Buffer): void {
    if (b.length === 0) return;
    this.parts.unshift(b);
    this.len += b.length;
    this.offset -= b.length;
  }

  /** Everything still held (then the iterator's chunks), as it comes. */
  async *rest(): AsyncGenerator<Buffer> {
    while (this.len > 0) yield this.take(this.len);
    for (;;) {
      await this.fill(1);
      if (this.len === 0) return;
      yield this.take(this.len);
    }
  }
}

export interface GzipFault {
  message: string;
  /** Compressed byte offset of the fault. */
  byteOffset: number;
}

/** Compressed bytes handed to the inflater per write: bounds the output held at once. */
const PIECE = 32 * 1024;
/** A gzip header longer than this (its file name or comment) is taken as corrupt. */
const MAX_HEADER = 64 * 1024;

/**
 * The decompressed bytes of every member of `src` (which starts with a gzip magic); a fault ends
 * the stream normally after everything before it was yielded, and is stored in `fault.value`.
 */
export async function* gunzipMembers(src: ByteSource, fault: { value: GzipFault | null }): AsyncGenerator<Buffer> {
  let member = 0;
  for (;;) {
    await src.fill(1);
    if (src.length === 0) return;
    const memberAt = src.offset;
    await src.fill(10);
    const h = src.peek(Math.min(src.length, 10));
    if (h.length < 2 || h[0] !== 0x1f || h[1] !== 0x8b) {
      // `zcat` ignores zero padding after the last member (tape blocks); anything else is a fault.
      if (await onlyZeros(src)) return;
      fault.value = { message: `bytes that are not gzip after gzip member ${member} (from byte ${memberAt}); the members before them are read`, byteOffset: memberAt };
      return;
    }
    if (h.length < 10) {
      fault.value = { message: `truncated gzip header (member ${member + 1})`, byteOffset: memberAt };
      return;
    }
    if (h[2] !== 8) {
      fault.value = { message: `unknown gzip compression method ${h[2]} (member ${member + 1})`, byteOffset: memberAt };
      return;
    }
    const headerLen = await gzipHeaderLength(src, h[3]!);
    if (headerLen < 0) {
      fault.value = { message: `truncated or corrupt gzip header (member ${member + 1})`, byteOffset: memberAt };
      return;
    }
    while (src.offset < memberAt + headerLen) src.take(memberAt + headerLen - src.offset);

    const z = zlib().createInflateRaw({ chunkSize: 256 * 1024 });
    const out: Buffer[] = [];
    let ended = false;
    let error: Error | null = null;
    let crc = 0;
    let size = 0;
    z.on('data', (b: Buffer) => {
      out.push(b);
      crc = zlib().crc32(b, crc);
      size += b.length;
    });
    z.on('end', () => (ended = true));
    z.on('error', (e) => (error = e));
    const dataAt = src.offset;
    let fed = 0;
    const fedParts: Buffer[] = [];
    let fedPartsLen = 0;
    while (!ended && !error) {
      await src.fill(1);
      if (src.length === 0) break;
      const piece = src.take(PIECE);
      fed += piece.length;
      fedParts.push(piece);
      fedPartsLen += piece.length;
      // Keep only what may have to be put back (the tail beyond the member's end lies in the last pieces).
      while (fedParts.length > 2) fedPartsLen -= fedParts.shift()!.length;
      // The write's callback, or the error (after which zlib may never call it).
      await new Promise<void>((res) => {
        const done = () => {
          z.off('error', done);
          res();
        };
        z.once('error', done);
        z.write(piece, done);
      });
      if (z.bytesWritten < fed) ended = true;
      while (out.length) yield out.shift()!;
    }
    const cut = !ended && !error;
    if (cut) {
      // The input ended inside the member.
      await new Promise<void>((res) => {
        z.once('end', () => res());
        z.once('error', () => res());
        z.once('close', () => res());
        z.end();
      });
    }
    while (out.length) yield out.shift()!;
    z.destroy();
    if (error || !ended) {
      const why = error && !cut ? `corrupt gzip data in member ${member + 1} (${(error as Error).message})` : `truncated gzip stream (member ${member + 1} ends early)`;
      fault.value = { message: why, byteOffset: dataAt + z.bytesWritten };
      return;
    }
    // Put back what the inflater did not consume: the trailer and whatever follows.
    const leftover = fed - z.bytesWritten;
    if (leftover > 0) {
      const tail = Buffer.concat(fedParts, fedPartsLen);
      src.unshift(Buffer.from(tail.subarray(tail.length - leftover)));
    }
    await src.fill(8);
    if (src.length < 8) {
      fault.value = { message: `truncated gzip trailer (member ${member + 1})`, byteOffset: src.offset };
      return;
    }
    const t = Buffer.from(src.peek(8));
    const trailerAt = src.offset;
    src.take(8);
    while (src.offset < trailerAt + 8) src.take(trailerAt + 8 - src.offset);
    if (t.readUInt32LE(0) !== crc >>> 0 || t.readUInt32LE(4) !== size % 2 ** 32) {
      fault.value = { message: `gzip member ${member + 1} fails its CRC or size check (its data is read)`, byteOffset: trailerAt };
      return;
    }
    member++;
  }
}

/** Length of the gzip header at the front of `src` (flags FEXTRA, FNAME, FCOMMENT, FHCRC), or -1. */
async function gzipHeaderLength(src: ByteSource, flags: number): Promise<number> {
  let p = 10;
  if (flags & 4) {
    await src.fill(p + 2);
    if (src.length < p + 2) return -1;
    p += 2 + src.peek(p + 2).readUInt16LE(p);
  }
  for (const bit of [8, 16]) {
    if (!(flags & bit)) continue;
    for (;;) {
      await src.fill(p + 1);
      if (src.length < p + 1 || p > MAX_HEADER) return -1;
      const z = src.peek(Math.min(src.length, MAX_HEADER)).indexOf(0, p);
      if (z !== -1) {
        p = z + 1;
        break;
      }
      if (src.eof || src.length >= MAX_HEADER) return -1;
      await src.fill(src.length + 1);
    }
  }
  if (flags & 2) p += 2;
  await src.fill(p);
  return src.length < p ? -1 : p;
}

/** Only zero bytes remain (consumed if so). */
async function onlyZeros(src: ByteSource): Promise<boolean> {
  for (;;) {
    await src.fill(1);
    if (src.length === 0) return true;
    const b = src.peek(Math.min(src.length, 1 << 16));
    for (const c of b) if (c !== 0) return false;
    src.take(b.length);
  }
}
