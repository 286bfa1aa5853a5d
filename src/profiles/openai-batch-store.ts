/**
 * The OpenAI Batch profile's two windows in compact form (docs/performance.md, "Memory"): the
 * `custom_id`s of requests read, and the output lines held until the end of the input. Both hold up
 * to a million entries, so neither keeps a string, a Set entry or an event object per entry: ids
 * are bytes in one growing byte array (a correlation id is 1–128 characters of [A-Za-z0-9_-], and a
 * derived `custom_id:missing:N` key is ASCII too), looked up through an open-addressing table of
 * typed arrays; a held output keeps only what its event is rebuilt from.
 */

/** Ids as bytes, one after the other: entry i is bytes [ends[i-1], ends[i]). */
class IdBytes {
  private bytes = new Uint8Array(1 << 12);
  private ends = new Uint32Array(1 << 8);
  private used = 0;
  count = 0;

  /** Appends an ASCII string; returns its index. */
  push(s: string): number {
    const n = s.length;
    if (this.used + n > this.bytes.length) {
      let cap = this.bytes.length * 2;
      while (cap < this.used + n) cap *= 2;
      const b = new Uint8Array(cap);
      b.set(this.bytes.subarray(0, this.used));
      this.bytes = b;
    }
    if (this.count === this.ends.length) {
      const e = new Uint32Array(this.ends.length * 2);
      e.set(this.ends);
      this.ends = e;
    }
    const b = this.bytes;
    let at = this.used;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      // Ids are checked ASCII before they get here; anything else would not round-trip.
      if (c > 0x7f) throw new Error('IdBytes: a non-ASCII id');
      b[at++] = c;
    }
    this.used = at;
    this.ends[this.count] = at;
    return this.count++;
  }

  equals(i: number, s: string): boolean {
    const start = i === 0 ? 0 : this.ends[i - 1]!;
    const end = this.ends[i]!;
    if (end - start !== s.length) return false;
    const b = this.bytes;
    for (let k = 0; k < s.length; k++) if (b[start + k] !== s.charCodeAt(k)) return false;
    return true;
  }

  get(i: number): string {
    const start = i === 0 ? 0 : this.ends[i - 1]!;
    return String.fromCharCode.apply(null, this.bytes.subarray(start, this.ends[i]!) as unknown as number[]);
  }
}

/** A string's FNV-1a hash. */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A set of ASCII ids (what `Set<string>` did for `has`, `add` and `size`). */
export class IdSet {
  private ids = new IdBytes();
  private hashes = new Uint32Array(1 << 8);
  /** Slot → entry index + 1 (0: empty); its length a power of two, at most half full. */
  private slots = new Int32Array(1 << 9);

  get size(): number {
    return this.ids.count;
  }

  has(s: string): boolean {
    return this.find(s, hashOf(s)) >= 0;
  }

  add(s: string): void {
    const h = hashOf(s);
    const at = this.find(s, h);
    if (at >= 0) return;
    const i = this.ids.push(s);
    if (i === this.hashes.length) {
      const hs = new Uint32Array(this.hashes.length * 2);
      hs.set(this.hashes);
      this.hashes = hs;
    }
    this.hashes[i] = h;
    this.slots[~at] = i + 1;
    if ((i + 1) * 2 > this.slots.length) this.grow();
  }

  /** The slot holding `s` (≥ 0), or ~(the empty slot it would go in). */
  private find(s: string, h: number): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let p = h & mask; ; p = (p + 1) & mask) {
      const e = slots[p]!;
      if (e === 0) return ~p;
      if (this.hashes[e - 1] === h && this.ids.equals(e - 1, s)) return p;
    }
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let i = 0; i < this.ids.count; i++) {
      let p = this.hashes[i]! & mask;
      while (slots[p] !== 0) p = (p + 1) & mask;
      slots[p] = i + 1;
    }
    this.slots = slots;
  }
}

/**
 * The last `size / 2` to `size` ids added, in two IdSet generations (as engine/recent.ts
 * `Generations` keeps a Map's): when the current one holds `size / 2`, it becomes the previous one
 * and the old previous one is dropped. The ids added lately are always there.
 */
export class RecentIds {
  private cur = new IdSet();
  private prev = new IdSet();
  private readonly half: number;

  constructor(size: number) {
    this.half = Math.max(1, size >> 1);
  }

  has(s: string): boolean {
    return this.cur.has(s) || this.prev.has(s);
  }

  add(s: string): void {
    if (this.cur.size >= this.half) {
      this.prev = this.cur;
      this.cur = new IdSet();
    }
    this.cur.add(s);
  }
}

/** What a held output's event is rebuilt from: the values its first `makeEvent` produced. */
export interface HeldOutput {
  id: string;
  model: string | null;
  status: string | null;
  error: string | null;
  usage: { inputTokens: number | null; outputTokens: number | null; cacheReadTokens: number | null; cacheWriteTokens: number | null } | null;
  path: string;
  line: number;
  pointer: string | undefined;
}

const NUMS = 5; // line, then the four usage counts (NaN: null)
const STRS = 4; // model, status, error, path (−1: null)

/** Held outputs, in the order they were held. */
export class HeldOutputs {
  private ids = new IdBytes();
  private nums = new Float64Array(NUMS << 8);
  private strs = new Int32Array(STRS << 8);
  private hasUsage = new Uint8Array(1 << 8);
  /** The few distinct texts (models, statuses, error texts, paths), each kept once. */
  private texts: string[] = [];
  private textIndex = new Map<string, number>();
  private pointers: Map<number, string> | null = null;

  get length(): number {
    return this.ids.count;
  }

  private text(s: string | null): number {
    if (s === null) return -1;
    let i = this.textIndex.get(s);
    if (i === undefined) {
      i = this.texts.length;
      this.texts.push(s);
      this.textIndex.set(s, i);
    }
    return i;
  }

  push(h: HeldOutput): void {
    const i = this.ids.push(h.id);
    if (i === this.hasUsage.length) {
      const cap = this.hasUsage.length * 2;
      const n = new Float64Array(NUMS * cap);
      n.set(this.nums);
      this.nums = n;
      const s = new Int32Array(STRS * cap);
      s.set(this.strs);
      this.strs = s;
      const u = new Uint8Array(cap);
      u.set(this.hasUsage);
      this.hasUsage = u;
    }
    const n = this.nums;
    const s = this.strs;
    n[i * NUMS] = h.line;
    const u = h.usage;
    if (u) {
      this.hasUsage[i] = 1;
      n[i * NUMS + 1] = u.inputTokens ?? NaN;
      n[i * NUMS + 2] = u.outputTokens ?? NaN;
      n[i * NUMS + 3] = u.cacheReadTokens ?? NaN;
      n[i * NUMS + 4] = u.cacheWriteTokens ?? NaN;
    }
    s[i * STRS] = this.text(h.model);
    s[i * STRS + 1] = this.text(h.status);
    s[i * STRS + 2] = this.text(h.error);
    s[i * STRS + 3] = this.text(h.path);
    if (h.pointer !== undefined) (this.pointers ??= new Map()).set(i, h.pointer);
  }

  /** Calls `f` on each held output in order, then forgets them all. */
  drain(f: (h: HeldOutput) => void): void {
    const count = this.ids.count;
    const num = (v: number): number | null => (Number.isNaN(v) ? null : v);
    const str = (k: number): string | null => (k < 0 ? null : this.texts[k]!);
    for (let i = 0; i < count; i++) {
      const n = this.nums;
      const s = this.strs;
      f({
        id: this.ids.get(i),
        model: str(s[i * STRS]!),
        status: str(s[i * STRS + 1]!),
        error: str(s[i * STRS + 2]!),
        usage:
          this.hasUsage[i] === 1
            ? { inputTokens: num(n[i * NUMS + 1]!), outputTokens: num(n[i * NUMS + 2]!), cacheReadTokens: num(n[i * NUMS + 3]!), cacheWriteTokens: num(n[i * NUMS + 4]!) }
            : null,
        path: this.texts[s[i * STRS + 3]!]!,
        line: n[i * NUMS]!,
        pointer: this.pointers?.get(i),
      });
    }
    this.ids = new IdBytes();
    this.nums = new Float64Array(NUMS << 8);
    this.strs = new Int32Array(STRS << 8);
    this.hasUsage = new Uint8Array(1 << 8);
    this.texts = [];
    this.textIndex = new Map();
    this.pointers = null;
  }
}
