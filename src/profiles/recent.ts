/**
 * The exact-duplicate window (docs/design.md §3.1: a family line byte-identical to one of the last N family
 * lines of the same file). Byte-exact in effect: a line is compared by length first, then byte for
 * byte against a kept copy; lines beyond the copy budget are compared by SHA-256, never by a weak
 * hash. A 32-bit fingerprint of the line only
 * skips entries that cannot be equal (equal lines have equal fingerprints): the decision is still the
 * byte comparison or the SHA-256.
 */
import { crypto } from '../builtins.js';

interface Entry {
  /** Length of the line (-1 for a slot not yet used). */
  len: number;
  /** The line's copy in its first `len` bytes (the buffer is reused for later lines), or null. */
  bytes: Buffer | null;
  digest: string | null;
  /** The line's fingerprint (`fingerprint`). */
  fp: number;
}

/** Bytes of a line that the fingerprint reads at each end; a longer line's middle is sampled. */
const FP_EDGE = 32;
/** Bytes sampled, evenly spaced, between the two ends of a line longer than 2 * FP_EDGE. */
const FP_MIDDLE = 64;

/**
 * FNV-1a over the line's length, both ends and a sample of its middle: a filter before the exact
 * test (equal lines have equal fingerprints whatever bytes it reads), cheap on every line.
 */
function fingerprint(b: Buffer): number {
  let h = 0x811c9dc5 ^ b.length;
  const n = b.length;
  if (n <= 2 * FP_EDGE + FP_MIDDLE) {
    for (let i = 0; i < n; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  } else {
    for (let i = 0; i < FP_EDGE; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
    const step = ((n - 2 * FP_EDGE) / FP_MIDDLE) | 0;
    for (let k = 0, i = FP_EDGE; k < FP_MIDDLE; k++, i += step) h = Math.imul(h ^ b[i]!, 0x01000193);
    for (let i = n - FP_EDGE; i < n; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  }
  return h | 1;
}

/** Bytes kept as copies across the window; beyond it, entries keep a SHA-256 instead. */
const COPY_BUDGET = 8 * 1024 * 1024;

/** Buckets of the fingerprint filter (a power of two). */
const BUCKETS = 1024;

/** A fingerprint's bucket (its low bit is always set, so the bits above it). */
function bucketOf(fp: number): number {
  return (fp >>> 1) & (BUCKETS - 1);
}

const sha256 = (b: Buffer) => crypto().createHash('sha256').update(b).digest('base64');

export class RecentLines {
  private readonly ring: Entry[] = [];
  /** Per ring slot: its entry's `len` and `fp`, the filter the scan reads. */
  private readonly lens: Int32Array;
  private readonly fps: Int32Array;
  /**
   * How many ring entries with bytes have a fingerprint in each bucket (`bucketOf`): a line whose
   * bucket is empty equals no entry, and is remembered without a scan (most lines are not repeats).
   */
  private readonly buckets = new Int32Array(BUCKETS);
  private at = 0;
  /** Bytes held by the entries' buffers. */
  private copied = 0;
  constructor(private readonly size: number) {
    this.lens = new Int32Array(size);
    this.fps = new Int32Array(size);
  }

  /**
   * True when the line equals one of the last `size` lines seen (it is then not added); else the
   * line is remembered.
   */
  seen(raw: Buffer): boolean {
    let d: string | null = null;
    const len = raw.length;
    const fp = fingerprint(raw);
    const lens = this.lens;
    const fps = this.fps;
    const ring = this.ring;
    const n = this.buckets[bucketOf(fp)] === 0 ? 0 : ring.length;
    for (let i = 0; i < n; i++) {
      // Length and fingerprint from flat arrays: most entries are passed over without a load of their object.
      if (lens[i] !== len || fps[i] !== fp) continue;
      const x = ring[i]!;
      if (x.bytes) {
        if (raw.compare(x.bytes, 0, len) === 0) return true;
        continue;
      }
      d ??= sha256(raw);
      if (x.digest === d) return true;
    }
    // The slot this line takes: a new one while the ring fills, else the oldest, reused in place
    // (its buffer too when the line fits: no allocation per line).
    let e: Entry;
    let slot: number;
    if (this.ring.length < this.size) {
      slot = this.ring.length;
      this.ring.push((e = { len: -1, bytes: null, digest: null, fp: 0 }));
    } else {
      slot = this.at;
      e = this.ring[slot]!;
      this.at = (this.at + 1) % this.size;
      if (e.len >= 0) this.buckets[bucketOf(e.fp)]!--;
    }
    this.buckets[bucketOf(fp)]!++;
    e.len = len;
    e.fp = fp;
    this.lens[slot] = len;
    this.fps[slot] = fp;
    if (e.bytes && e.bytes.length >= len) {
      raw.copy(e.bytes, 0);
      e.digest = null;
      return false;
    }
    if (e.bytes) {
      this.copied -= e.bytes.length;
      e.bytes = null;
    }
    // Its own memory, not a slice of Node's shared pool (a slice would hold a whole 8 kB slab), sized
    // to a power of two so that the slot's later lines mostly fit in it.
    const cap = len <= 512 ? 512 : 2 ** Math.ceil(Math.log2(len));
    if (this.copied + cap <= COPY_BUDGET) {
      e.bytes = Buffer.allocUnsafeSlow(cap);
      raw.copy(e.bytes, 0);
      this.copied += cap;
      e.digest = null;
    } else e.digest = d ?? sha256(raw);
    return false;
  }
}
