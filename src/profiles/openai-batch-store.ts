/**
 * The OpenAI Batch profile's stores in compact form (docs/performance.md, "Memory"): the requests
 * read and not answered yet, the output lines read before their request, and the `custom_id`s of
 * the calls handed to the engine lately. Each may hold a million entries or more, so none keeps a
 * string, a Map entry or an event object per entry: an entry is a few typed-array cells in a page
 * of PAGE entries — its id as bytes (a correlation id is 1–128 characters of [A-Za-z0-9_-], and a
 * derived `custom_id:missing:N` key is ASCII too), its hash, its numbers (an int32 in place) and its
 * texts as indexes into the few distinct texts — found through an open-addressing table of slots.
 * Pages are added, never copied, so a store grows without holding two copies of itself.
 */

/** A string's FNV-1a hash. */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const NON_ASCII = /[^\u0000-\u007f]/;

/** Puts entry `i` of hash `h` in the first free slot of its probe run (linear probing). */
function place(slots: Int32Array, h: number, i: number): void {
  const mask = slots.length - 1;
  let p = h & mask;
  while (slots[p] !== 0) p = (p + 1) & mask;
  slots[p] = i + 1;
}

/** An entry's id, from its page's bytes. */
function idAt(pg: Page, off: number): string {
  const start = pg.idStart[off]!;
  return String.fromCharCode.apply(null, pg.bytes.subarray(start, start + pg.idLen[off]!) as unknown as number[]);
}

/** An entry's number `at` (cell index in its page; `key` its bigNums key). */
function numAt(pg: Page, at: number, bigNums: Map<number, number> | null, key: number): number {
  const v = pg.nums[at]!;
  return v === NUM_NAN ? NaN : v === NUM_BIG ? bigNums!.get(key)! : v;
}

/** A number not held in an entry's Int32 cell: NaN, and one kept in `bigNums` (not an int32, or −0). */
const NUM_NAN = -0x80000000;
const NUM_BIG = -0x7fffffff;

/** Entries per page (a power of two). */
const PAGE_BITS = 14;
const PAGE = 1 << PAGE_BITS;
const PAGE_MASK = PAGE - 1;

/** One page of entries: its cells, and its ids' bytes one after the other. */
interface Page {
  hashes: Uint32Array;
  removed: Uint8Array;
  nums: Int32Array;
  strs: Int32Array;
  idStart: Uint32Array;
  idLen: Uint8Array;
  bytes: Uint8Array;
  used: number;
}

/**
 * Entries keyed by an ASCII id, in the order they were added, each with `numCount` numbers (an
 * int32 in place, any other number exactly in a side map) and `strCount` texts (or null) and maybe
 * a JSON pointer; an id may be added more than once (`first` finds the earliest still held).
 * Removing an entry marks it; when as many are marked as held, the store is rebuilt without them
 * (amortised O(1) per entry; an entry's index changes then, so callers use an index only until the
 * next `add` or `remove`).
 */
export class KeyedEntries {
  private pages: Page[] = [];
  /** Entries added (held or marked). */
  private count = 0;
  private bigNums: Map<number, number> | null = null;
  /** Slot → entry index + 1 (0: empty); its length a power of two, at most half full. */
  private slots = new Int32Array(1 << 9);
  /** The distinct texts of the entries, each kept once (rebuilt with the store). */
  private texts: string[] = [];
  private textIndex = new Map<string, number>();
  private pointers: Map<number, string> | null = null;
  /** Entries held (added and not removed). */
  size = 0;
  /** No entry before it is held (`oldest`). */
  private head = 0;

  constructor(
    private readonly numCount: number,
    private readonly strCount: number,
  ) {}

  /** Per text column, the last text and its index: most entries repeat their neighbour's. */
  private lastText: (string | null)[] = [];
  private lastIndex: number[] = [];

  private text(k: number, s: string | null): number {
    if (s === null) return -1;
    if (this.lastText[k] === s) return this.lastIndex[k]!;
    let i = this.textIndex.get(s);
    if (i === undefined) {
      i = this.texts.length;
      this.texts.push(s);
      this.textIndex.set(s, i);
    }
    this.lastText[k] = s;
    this.lastIndex[k] = i;
    return i;
  }

  private newPage(): Page {
    return {
      hashes: new Uint32Array(PAGE),
      removed: new Uint8Array(PAGE),
      nums: new Int32Array(Math.max(1, this.numCount) * PAGE),
      strs: new Int32Array(Math.max(1, this.strCount) * PAGE),
      idStart: new Uint32Array(PAGE),
      idLen: new Uint8Array(PAGE),
      bytes: new Uint8Array(1 << 12),
      used: 0,
    };
  }

  /** Adds an entry; returns its index. */
  add(id: string, nums: readonly number[], strs: readonly (string | null)[], pointer?: string): number {
    const n = id.length;
    // Ids are checked before they get here (ASCII, at most 128 characters); anything else would not round-trip.
    if (n > 255) throw new Error('KeyedEntries: an id over 255 characters');
    if (NON_ASCII.test(id)) throw new Error('KeyedEntries: a non-ASCII id');
    const i = this.count++;
    const off = i & PAGE_MASK;
    if (off === 0) this.pages.push(this.newPage());
    const pg = this.pages[i >>> PAGE_BITS]!;
    if (pg.used + n > pg.bytes.length) {
      let cap = pg.bytes.length * 2;
      while (cap < pg.used + n) cap *= 2;
      const b = new Uint8Array(cap);
      b.set(pg.bytes.subarray(0, pg.used));
      pg.bytes = b;
    }
    const b = pg.bytes;
    let at = pg.used;
    pg.idStart[off] = at;
    pg.idLen[off] = n;
    for (let k = 0; k < n; k++) b[at++] = id.charCodeAt(k);
    pg.used = at;
    const h = hashOf(id);
    pg.hashes[off] = h;
    pg.removed[off] = 0;
    const nc = this.numCount;
    for (let k = 0; k < nc; k++) this.setNumAt(pg, i, off * nc + k, nums[k]!);
    const sc = this.strCount;
    for (let k = 0; k < sc; k++) pg.strs[off * sc + k] = this.text(k, strs[k]!);
    if (pointer !== undefined) (this.pointers ??= new Map()).set(i, pointer);
    if ((this.count + 1) * 2 > this.slots.length) this.rehash();
    else place(this.slots, h, i);
    this.size++;
    return i;
  }

  private setNumAt(pg: Page, i: number, at: number, v: number): void {
    if (v !== v) pg.nums[at] = NUM_NAN;
    else if ((v | 0) === v && v > NUM_BIG && (v !== 0 || 1 / v > 0)) pg.nums[at] = v;
    else {
      pg.nums[at] = NUM_BIG;
      (this.bigNums ??= new Map()).set(i * this.numCount + (at % this.numCount), v);
    }
  }

  private idEquals(pg: Page, off: number, s: string): boolean {
    if (pg.idLen[off] !== s.length) return false;
    const b = pg.bytes;
    const start = pg.idStart[off]!;
    for (let k = 0; k < s.length; k++) if (b[start + k] !== s.charCodeAt(k)) return false;
    return true;
  }

  /** The earliest entry held with this id, or −1. */
  first(id: string): number {
    const h = hashOf(id);
    const slots = this.slots;
    const mask = slots.length - 1;
    // Linear probing keeps one id's entries in the order they were added along its probe run.
    for (let p = h & mask; ; p = (p + 1) & mask) {
      const e = slots[p]!;
      if (e === 0) return -1;
      const i = e - 1;
      const pg = this.pages[i >>> PAGE_BITS]!;
      const off = i & PAGE_MASK;
      if (pg.hashes[off] === h && pg.removed[off] === 0 && this.idEquals(pg, off, id)) return i;
    }
  }

  has(id: string): boolean {
    return this.first(id) >= 0;
  }

  /** Marks entry `i` removed (it must be held). */
  remove(i: number): void {
    this.pages[i >>> PAGE_BITS]!.removed[i & PAGE_MASK] = 1;
    this.size--;
    this.pointers?.delete(i);
    if (this.bigNums !== null) for (let k = 0; k < this.numCount; k++) this.bigNums.delete(i * this.numCount + k);
    const marked = this.count - this.size;
    if (marked > 4096 && marked > this.size) this.rebuild();
  }

  id(i: number): string {
    return idAt(this.pages[i >>> PAGE_BITS]!, i & PAGE_MASK);
  }

  num(i: number, k: number): number {
    return numAt(this.pages[i >>> PAGE_BITS]!, (i & PAGE_MASK) * this.numCount + k, this.bigNums, i * this.numCount + k);
  }

  str(i: number, k: number): string | null {
    const t = this.pages[i >>> PAGE_BITS]!.strs[(i & PAGE_MASK) * this.strCount + k]!;
    return t < 0 ? null : this.texts[t]!;
  }

  pointer(i: number): string | undefined {
    return this.pointers?.get(i);
  }

  /** Sets number `k` of entry `i` (it must be held). */
  setNum(i: number, k: number, v: number): void {
    const at = (i & PAGE_MASK) * this.numCount + k;
    this.bigNums?.delete(i * this.numCount + k);
    this.setNumAt(this.pages[i >>> PAGE_BITS]!, i, at, v);
  }

  private isRemoved(i: number): boolean {
    return this.pages[i >>> PAGE_BITS]!.removed[i & PAGE_MASK] !== 0;
  }

  /** The entry held the longest, or −1. */
  oldest(): number {
    while (this.head < this.count && this.isRemoved(this.head)) this.head++;
    return this.head < this.count ? this.head : -1;
  }

  /** The slot table for the entries there are (removed ones included), at most half full. */
  private rehash(): void {
    let cap = 1 << 9;
    while (cap < (this.count + 1) * 2) cap *= 2;
    const slots = new Int32Array(cap);
    for (let i = 0; i < this.count; i++) place(slots, this.pages[i >>> PAGE_BITS]!.hashes[i & PAGE_MASK]!, i);
    this.slots = slots;
  }

  /** A new store holding the entries held, in order: indexes change. */
  private rebuild(): void {
    const old = { count: this.count, pages: this.pages, texts: this.texts, pointers: this.pointers, bigNums: this.bigNums };
    this.pages = [];
    this.count = 0;
    this.bigNums = null;
    this.slots = new Int32Array(1 << 9);
    this.texts = [];
    this.textIndex = new Map();
    this.lastText = [];
    this.lastIndex = [];
    this.pointers = null;
    this.size = 0;
    this.head = 0;
    const nc = this.numCount;
    const sc = this.strCount;
    const nums: number[] = new Array<number>(nc);
    const strs: (string | null)[] = new Array<string | null>(sc);
    for (let i = 0; i < old.count; i++) {
      const off = i & PAGE_MASK;
      // A page fully copied is dropped at once: the rebuild never holds two whole copies.
      if (off === 0 && i > 0) old.pages[(i >>> PAGE_BITS) - 1] = undefined as never;
      const pg = old.pages[i >>> PAGE_BITS]!;
      if (pg.removed[off] !== 0) continue;
      for (let k = 0; k < nc; k++) nums[k] = numAt(pg, off * nc + k, old.bigNums, i * nc + k);
      for (let k = 0; k < sc; k++) {
        const t = pg.strs[off * sc + k]!;
        strs[k] = t < 0 ? null : old.texts[t]!;
      }
      this.add(idAt(pg, off), nums, strs, old.pointers?.get(i));
    }
  }
}

/** Where a request was read: its path and line (and pointer, in a JSON document). */
export interface ReadAt {
  path: string;
  line: number;
  pointer?: string;
}

/**
 * The `custom_id`s of the last `size / 2` to `size` calls handed to the engine, with where each was
 * first read and whether a call with it has closed (in two KeyedEntries generations, as
 * engine/recent.ts `Generations` keeps a Map's: when the current one holds `size / 2`, it becomes
 * the previous one and the old previous one is dropped). `forgotten`: the id of a closed call was
 * dropped, so a request not found may repeat one (an id still open in the engine is the engine's to
 * find repeated).
 */
export class ReadIds {
  private cur = new KeyedEntries(2, 1); // line, closed (1/0); path
  private prev = new KeyedEntries(2, 1);
  private curClosed = 0;
  private prevClosed = 0;
  private readonly half: number;
  forgotten = false;

  constructor(size: number) {
    this.half = Math.max(1, size >> 1);
  }

  has(id: string): boolean {
    return this.cur.has(id) || this.prev.has(id);
  }

  /** Where the id was first read, if it is remembered. */
  firstRead(id: string): ReadAt | null {
    let g = this.prev;
    let i = g.first(id);
    if (i < 0) {
      g = this.cur;
      i = g.first(id);
    }
    if (i < 0) return null;
    const p = g.pointer(i);
    return p === undefined ? { path: g.str(i, 0)!, line: g.num(i, 0) } : { path: g.str(i, 0)!, line: g.num(i, 0), pointer: p };
  }

  /** A call with this id has closed (the id is remembered: `has`). */
  closed(id: string): void {
    const i = this.cur.first(id);
    if (i >= 0) {
      if (this.cur.num(i, 1) === 0) {
        this.cur.setNum(i, 1, 1);
        this.curClosed++;
      }
      return;
    }
    const j = this.prev.first(id);
    if (j >= 0 && this.prev.num(j, 1) === 0) {
      this.prev.setNum(j, 1, 1);
      this.prevClosed++;
    }
  }

  /**
   * Remembers an id read at `at` (when it was read before, where it was first read), `closed` when
   * its call has closed (else it is open in the engine).
   */
  add(id: string, at: ReadAt, closed: boolean): void {
    if (this.cur.has(id)) {
      if (closed) this.closed(id);
      return;
    }
    const j = this.prev.first(id);
    const first = j >= 0 ? this.firstRead(id)! : at;
    const wasClosed = closed || (j >= 0 && this.prev.num(j, 1) === 1);
    if (this.cur.size >= this.half) {
      if (this.prevClosed > 0) this.forgotten = true;
      this.prev = this.cur;
      this.prevClosed = this.curClosed;
      this.cur = new KeyedEntries(2, 1);
      this.curClosed = 0;
    }
    this.cur.add(id, [first.line, wasClosed ? 1 : 0], [first.path], first.pointer);
    if (wasClosed) this.curClosed++;
  }
}
