/**
 * The exact-duplicate window (docs/design.md §3.1: a family line byte-identical to one of the last N family
 * lines of the same file). Byte-exact in effect: a line is compared by length first, then byte for
 * byte against a kept copy; lines beyond the copy budget (and lines read by a worker, which arrive
 * as a digest) are compared by SHA-256, never by a weak hash.
 */
import { crypto } from '../builtins.js';

interface Entry {
  len: number;
  bytes: Buffer | null;
  digest: string | null;
}

/** Bytes kept as copies across the window; beyond it, entries keep a SHA-256 instead. */
const COPY_BUDGET = 8 * 1024 * 1024;

const sha256 = (b: Buffer) => crypto().createHash('sha256').update(b).digest('base64');

export class RecentLines {
  private readonly ring: Entry[] = [];
  private at = 0;
  private copied = 0;
  constructor(private readonly size: number) {}

  /**
   * True when the line equals one of the last `size` lines seen (it is then not added); else the
   * line is remembered. Give the bytes (`raw`), or, when only a SHA-256 is known, `digest`.
   */
  seen(raw: Buffer | null, digest: string | undefined): boolean {
    let d: string | null = raw ? null : (digest ?? null);
    const len = raw ? raw.length : -1;
    for (const x of this.ring) {
      if (raw) {
        if (x.len !== len) continue;
        if (x.bytes) {
          if (x.bytes.equals(raw)) return true;
          continue;
        }
        d ??= sha256(raw);
        if (x.digest === d) return true;
      } else {
        // Digest mode: every entry holds a digest.
        if (x.digest === d) return true;
      }
    }
    let e: Entry;
    if (raw && this.copied + len <= COPY_BUDGET) {
      e = { len, bytes: Buffer.from(raw), digest: null };
      this.copied += len;
    } else {
      e = { len, bytes: null, digest: d ?? sha256(raw!) };
    }
    if (this.ring.length < this.size) this.ring.push(e);
    else {
      const old = this.ring[this.at]!;
      if (old.bytes) this.copied -= old.len;
      this.ring[this.at] = e;
      this.at = (this.at + 1) % this.size;
    }
    return false;
  }
}
