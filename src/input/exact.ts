/**
 * Exact, or the exact path (docs/performance.md, "Exact or the exact path"; docs/guarantees.md):
 * every decision the reader takes on a line's bytes — the classifier's verdict (classify.ts), the
 * needle test (lines.ts) — must equal what the profiles decide on JSON.parse's reading of it, or
 * the line is parsed and they decide on the value. Bytes and JSON.parse can disagree on two
 * things only: a key written twice (JSON.parse keeps the last one), and a string spelled with an
 * escape that the byte test does not list (`\u0065` for `e`, `\/` for `/`). This module holds the
 * cheap tests that find the lines that may hold either, and the exact test for a repeated key.
 */
import type { KeepTree } from '../profiles/keep.js';
import { BSLASH, COLON, COMMA, isWs, LBRACE, QUOTE, RBRACE, skipString, skipValue } from './classify.js';

/**
 * The escapes that can spell a string differently from its JSON.stringify form: `\u` (any
 * character), and `\/` when one of `strings` (needles, keys, kinds) holds a `/`. Every other
 * escape is the one spelling of its character, the one JSON.stringify writes.
 */
export function escapePatterns(strings: readonly string[]): Buffer[] {
  const out = [Buffer.from('\\u', 'latin1')];
  if (strings.some((s) => s.includes('/'))) out.push(Buffer.from('\\/', 'latin1'));
  return out;
}

/**
 * Byte counts of the start of the current chunk (SAMPLE bytes): a pattern is searched from its
 * byte that is rarest there. Buffer.indexOf runs memchr on a probe's first byte and compares the
 * rest at each stop, so a probe whose first byte seldom occurs scans a chunk at memchr speed; one
 * starting with a common letter stops every few bytes. Which byte starts the probe changes only
 * how fast a search is: every hit is compared with the whole pattern.
 */
export class ByteSample {
  readonly counts = new Uint32Array(256);
  /** Bytes counted (0: no sample, probes start where they always did). */
  size = 0;

  /** Counts the first SAMPLE bytes of `buf` (a new chunk). */
  take(buf: Buffer): void {
    const c = this.counts;
    c.fill(0);
    const n = buf.length < SAMPLE ? buf.length : SAMPLE;
    for (let i = 0; i < n; i++) c[buf[i]!]!++;
    this.size = n;
  }

  /** The position in `p[lo..hi)` of the byte counted least (the first of equals). */
  rarest(p: Buffer, lo: number, hi: number): number {
    const c = this.counts;
    let best = lo;
    for (let k = lo + 1; k < hi; k++) if (c[p[k]!]! < c[p[best]!]!) best = k;
    return best;
  }

  /** Whether byte `b` is common in the sample (more than one in COMMON): no probe is fast then. */
  common(b: number): boolean {
    return this.counts[b]! * COMMON > this.size;
  }
}

/** Bytes of a chunk counted by ByteSample: a few lines, microseconds per 4 MiB chunk. */
const SAMPLE = 8192;
const COMMON = 64;

/** Where a probe sits in its pattern, and the probe (the bytes Buffer.indexOf searches). */
export interface Probe {
  off: number;
  probe: Buffer;
}

/**
 * The probe of pattern `p` for a chunk sampled by `bytes`: at most PROBE bytes from its rarest
 * byte (among `lo..hi`, the bytes every pattern of a group shares), or, when even that byte is
 * common and the pattern long, the whole pattern (Buffer.indexOf's Boyer-Moore-Horspool skips
 * instead of stopping at every common byte). `fallback` without a sample.
 */
export function probeFor(p: Buffer, bytes: ByteSample | null, fallback: Probe, lo = 0, hi = p.length): Probe {
  if (bytes === null || bytes.size === 0 || p.length === 0) return fallback;
  const r = bytes.rarest(p, lo, hi);
  if (lo === 0 && hi === p.length && p.length > PROBE && bytes.common(p[r]!)) return { off: 0, probe: p };
  return { off: r, probe: p.subarray(r, Math.min(r + PROBE, hi)) };
}

/**
 * Fixed byte patterns searched line after line: each pattern's next occurrence in the current
 * buffer is cached (as the needles' are), so a chunk costs one native search per pattern
 * occurrence, not one per line. Calls for one buffer must come with non-decreasing `s`.
 */
export class ChunkSearch {
  private readonly at: number[];
  /** Per pattern: the part searched, and where it sits (ByteSample, probeFor). */
  private probes: Probe[];
  /** The probes without a sample of the chunk. */
  private readonly initial: Probe[];

  /**
   * `probe`: without a sample of the chunk, search a short probe (for patterns found on most
   * lines, searched once per line); otherwise the whole pattern (Boyer-Moore-Horspool from 7
   * bytes: for rare patterns, searched once per chunk, it skips instead of stopping at every
   * common letter).
   */
  constructor(
    private readonly pats: readonly Buffer[],
    probe = false,
  ) {
    this.at = pats.map(() => -1);
    this.initial = pats.map((p) => {
      const off = probe && p[0] === 0x22 && p.length > 1 ? 1 : 0;
      return { probe: probe ? p.subarray(off, Math.min(off + PROBE, p.length)) : p, off };
    });
    this.probes = this.initial;
  }

  get empty(): boolean {
    return this.pats.length === 0;
  }

  /** Call before the lines of a new buffer (`bytes`: its sample, to pick each pattern's probe). */
  newChunk(bytes: ByteSample | null = null): void {
    this.at.fill(-1);
    if (bytes !== null && this.pats.length > 0) this.probes = this.pats.map((p, i) => probeFor(p, bytes, this.initial[i]!));
  }

  /** Where pattern `i` first starts at or after `from` in `buf`, or Infinity. */
  private find(buf: Buffer, i: number, from: number): number {
    const p = this.pats[i]!;
    const { probe, off } = this.probes[i]!;
    const n = probe.length;
    let q = from + off;
    for (;;) {
      q = buf.indexOf(probe, q);
      if (q < 0) return Infinity;
      const start = q - off;
      if (start + p.length <= buf.length) {
        let k = 0;
        while (k < off && buf[start + k] === p[k]) k++;
        if (k === off) {
          k += n;
          while (k < p.length && buf[start + k] === p[k]) k++;
          if (k === p.length) return start;
        }
      }
      q++;
    }
  }
  /** Whether a pattern occurs within `s..e`; `inChunk`: `buf` is the current chunk, else a buffer of its own. */
  has(buf: Buffer, s: number, e: number, inChunk: boolean): boolean {
    const pats = this.pats;
    for (let i = 0; i < pats.length; i++) {
      const p = pats[i]!;
      if (!inChunk) {
        if (this.find(buf, i, s) + p.length <= e) return true;
        continue;
      }
      let a = this.at[i]!;
      if (a !== Infinity && a < s) this.at[i] = a = this.find(buf, i, s);
      if (a + p.length <= e) return true;
    }
    return false;
  }
}

/**
 * Patterns are searched by a probe of at most this many bytes: Buffer.indexOf then runs a
 * memchr-driven search instead of setting up Boyer-Moore-Horspool on every call (lines.ts, PROBE).
 */
const PROBE = 6;

/**
 * The first key of `tree` that one object of the line `s..e` holds twice — keys compared decoded,
 * as JSON.parse compares them; nested objects are looked into where `tree` has a subtree — as a
 * dotted path (`params.name`), or null. Null too for a line that is not one object: call it on
 * lines JSON.parse accepted. `foldCase`: a key of `tree` under another letter case (`Params`,
 * which a case-insensitive decoder reads as `params`) is reported too, as its own spelling.
 */
export function repeatedKey(buf: Buffer, s: number, e: number, tree: KeepTree, foldCase = false): string | null {
  const r = scanObject(buf, s, e, planOf(tree), '', foldCase);
  return typeof r === 'string' ? r : null;
}

/** A `KeepTree` node made for scanning: its keys' bytes and names, by index, and their subtrees. */
interface KeyPlan {
  bytes: Buffer[];
  names: string[];
  subs: Array<true | KeyPlan>;
  /** Every key is ASCII: a key with a byte >= 0x80 is none of them without decoding. */
  ascii: boolean;
  /** The names case-folded (`foldKey`). */
  folded: string[];
}

/** A key as a case-insensitive decoder (Go's encoding/json) compares it: upper then lower case folds `ſ` and `K` too. */
export function foldKey(k: string): string {
  return k.toUpperCase().toLowerCase();
}

/**
 * The key string `ks..ke` when it is a key of `plan` under another letter case (a decoder matching
 * keys case-insensitively reads it as that key), else null.
 */
function caseVariant(buf: Buffer, ks: number, ke: number, plan: KeyPlan): string | null {
  let plain = true;
  for (let x = ks + 1; x < ke - 1; x++) {
    const c = buf[x]!;
    if (c === BSLASH || c >= 0x80) {
      plain = false;
      break;
    }
  }
  if (plain) {
    const n = ke - ks - 2;
    for (const kb of plan.bytes) {
      if (kb.length !== n) continue;
      let j = 0;
      while (j < n && lower(buf[ks + 1 + j]!) === lower(kb[j]!)) j++;
      if (j === n) return buf.toString('latin1', ks + 1, ke - 1);
    }
    return null;
  }
  let key: string;
  try {
    key = JSON.parse(buf.toString('utf8', ks, ke)) as string;
  } catch {
    return null;
  }
  const i = plan.folded.indexOf(foldKey(key));
  return i >= 0 && plan.names[i] !== key ? key : null;
}

function lower(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 32 : c;
}

const plans = new WeakMap<KeepTree, KeyPlan>();

function planOf(tree: KeepTree): KeyPlan {
  let p = plans.get(tree);
  if (p === undefined) {
    const names = Object.keys(tree);
    p = {
      bytes: names.map((k) => Buffer.from(k, 'utf8')),
      names,
      subs: names.map((k) => (tree[k] === true ? true : planOf(tree[k] as KeepTree))),
      ascii: names.every((k) => !/[^\u0000-\u007f]/.test(k)),
      folded: names.map(foldKey),
    };
    plans.set(tree, p);
  }
  return p;
}

/**
 * Which key of `plan` the key string `ks..ke` (quotes included) is, compared decoded as JSON.parse
 * compares keys, or -1 (-2: it does not decode). Plain bytes are compared as bytes; a key with an
 * escape, or with a byte >= 0x80 when the plan has a non-ASCII key, is decoded first.
 */
function keyIndex(buf: Buffer, ks: number, ke: number, plan: KeyPlan): number {
  let escaped = false;
  let high = false;
  for (let x = ks + 1; x < ke - 1; x++) {
    const c = buf[x]!;
    if (c === BSLASH) {
      escaped = true;
      break;
    }
    if (c >= 0x80) high = true;
  }
  if (escaped || (high && !plan.ascii)) {
    let key: string;
    try {
      key = escaped ? (JSON.parse(buf.toString('utf8', ks, ke)) as string) : buf.toString('utf8', ks + 1, ke - 1);
    } catch {
      return -2;
    }
    return plan.names.indexOf(key);
  }
  if (high) return -1;
  const n = ke - ks - 2;
  for (let k = 0; k < plan.bytes.length; k++) {
    const kb = plan.bytes[k]!;
    if (kb.length !== n) continue;
    let j = 0;
    while (j < n && buf[ks + 1 + j] === kb[j]) j++;
    if (j === n) return k;
  }
  return -1;
}

/** A repeated key's path, or where the object at `i` ends, or -1 when it does not scan. */
function scanObject(buf: Buffer, i: number, e: number, plan: KeyPlan, prefix: string, foldCase: boolean): string | number {
  if (buf[i] !== LBRACE) return -1;
  // The plan's keys seen in this object, by index.
  const seen = new Uint8Array(plan.names.length);
  i++;
  while (i < e && isWs(buf[i]!)) i++;
  if (buf[i] === RBRACE) return i + 1;
  for (;;) {
    while (i < e && isWs(buf[i]!)) i++;
    if (i >= e || buf[i] !== QUOTE) return -1;
    const ke = skipString(buf, i, e);
    if (ke < 0) return -1;
    const k = keyIndex(buf, i, ke, plan);
    if (k === -2) return -1;
    if (k === -1 && foldCase) {
      const v = caseVariant(buf, i, ke, plan);
      if (v !== null) return prefix + v;
    }
    i = ke;
    while (i < e && isWs(buf[i]!)) i++;
    if (i >= e || buf[i] !== COLON) return -1;
    i++;
    while (i < e && isWs(buf[i]!)) i++;
    if (i >= e) return -1;
    if (k >= 0) {
      if (seen[k] === 1) return prefix + plan.names[k]!;
      seen[k] = 1;
    }
    const sub = k >= 0 ? plan.subs[k]! : true;
    if (sub !== true && buf[i] === LBRACE) {
      const r = scanObject(buf, i, e, sub, `${prefix}${plan.names[k]!}.`, foldCase);
      if (typeof r === 'string' || r < 0) return r;
      i = r;
    } else {
      i = skipValue(buf, i, e);
      if (i < 0) return -1;
    }
    while (i < e && isWs(buf[i]!)) i++;
    if (i >= e) return -1;
    if (buf[i] === COMMA) i++;
    else if (buf[i] === RBRACE) return i + 1;
    else return -1;
  }
}

const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

/**
 * Whether some object of the JSON line `s..e` holds a key twice, any key at any depth (keys compared
 * decoded, as JSON.parse compares them). JSON.parse keeps the last value, so a reader keeping the
 * first may read another message. Call it on lines JSON.parse accepted: in valid JSON a string
 * followed by `:` is a key.
 */
export function repeatsAnyKey(buf: Buffer, s: number, e: number): boolean {
  const stack: Array<Set<string> | null> = [];
  let i = s;
  while (i < e) {
    const c = buf[i]!;
    if (c === LBRACE) {
      stack.push(new Set());
      i++;
    } else if (c === LBRACKET) {
      stack.push(null);
      i++;
    } else if (c === RBRACE || c === RBRACKET) {
      stack.pop();
      i++;
    } else if (c === QUOTE) {
      const end = skipString(buf, i, e);
      if (end < 0) return false;
      let j = end;
      while (j < e && isWs(buf[j]!)) j++;
      const keys = stack.length > 0 ? stack[stack.length - 1] : null;
      if (keys && buf[j] === COLON) {
        let plain = true;
        for (let x = i + 1; x < end - 1 && plain; x++) if (buf[x] === BSLASH || buf[x]! >= 0x80) plain = false;
        const k = plain ? buf.toString('latin1', i + 1, end - 1) : (JSON.parse(buf.toString('utf8', i, end)) as string);
        if (keys.has(k)) return true;
        keys.add(k);
      }
      i = end;
    } else i++;
  }
  return false;
}
