import type { Loc } from '../model.js';
import type { LatencySketch, LatencyStats } from '../model/snapshot.js';

/** The empty array every new histogram shares (never written: replaced on the first value). */
const NONE: number[] = [];

/**
 * A fixed-precision latency histogram (HDR-style, log-linear). The first 32 values are kept exactly
 * (percentiles of small scopes are exact). Beyond that values are kept in microseconds,
 * exact below 256 µs, above that in buckets 1/128 of their power of two wide. Each bucket also
 * keeps the smallest value it saw, and a percentile is reported as that observed value: it lies in
 * the same bucket as the true percentile, so it is off by less than 1/128 (< 1 %), and small
 * samples report real values. Memory is bounded by the number of distinct buckets (a few thousand
 * for any double), never by the count; two histograms merge exactly. min and max are exact, with
 * the location that produced them.
 */
export class LatencyHistogram {
  /** The first values are kept as they are (exact, and smaller than buckets for small scopes). */
  private samples: number[] | null = NONE;
  /**
   * Past them, the buckets: their indexes ascending, with each one's count and smallest value at
   * the same position. Sorted arrays, not Maps: a third of the memory (most scopes hold a few dozen
   * buckets, docs/design.md §8), and found by a binary search that starts at the last bucket hit.
   * Until the first bucket all four are the shared empty `NONE`, and the first sample is a
   * one-element array: a scope with a call or two holds about 200 bytes less (many-session runs
   * hold tens of thousands of them; docs/performance.md, "Memory").
   */
  private keys: number[] = NONE;
  private counts: number[] = NONE;
  private lows: number[] = NONE;
  private hit = 0;
  count = 0;
  min = Infinity;
  max = -Infinity;
  minAt: Loc | null = null;
  maxAt: Loc | null = null;
  sum = 0;

  record(ms: number, at: Loc | null): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    this.add(ms);
    this.count++;
    this.sum += ms;
    // Ties go to the earlier location (path order, then line), not the first one read: the same
    // whichever order the files are read in, so shard reports merge exactly (docs/scale-out.md).
    if (ms < this.min || (ms === this.min && earlier(at, this.minAt))) {
      this.min = ms;
      this.minAt = at;
    }
    if (ms > this.max || (ms === this.max && earlier(at, this.maxAt))) {
      this.max = ms;
      this.maxAt = at;
    }
  }

  private add(ms: number): void {
    if (this.samples) {
      // A push would grow a small array (or write the shared NONE) to 17 slots; a copy one longer
      // holds what it needs.
      if (this.samples.length < 8) {
        this.samples = this.samples.concat(ms);
        return;
      }
      this.samples.push(ms);
      if (this.samples.length <= EXACT_SAMPLES) return;
      const keep = this.samples;
      this.samples = null;
      for (const v of keep) this.addBucket(v);
      return;
    }
    this.addBucket(ms);
  }

  private addBucket(ms: number): void {
    this.addTo(bucketIndex(Math.round(ms * 1000)), 1, ms);
  }

  /** Adds `n` values to bucket `idx`, whose smallest is `lo`. */
  private addTo(idx: number, n: number, lo: number): void {
    if (this.keys === NONE) {
      this.keys = [idx];
      this.counts = [n];
      this.lows = [lo];
      this.hit = 0;
      return;
    }
    const keys = this.keys;
    let i = this.hit;
    if (keys[i] !== idx) {
      // Lower bound: the first position whose index is not below idx.
      let l = 0;
      let h = keys.length;
      while (l < h) {
        const m = (l + h) >>> 1;
        if (keys[m]! < idx) l = m + 1;
        else h = m;
      }
      i = l;
      if (keys[i] !== idx) {
        keys.splice(i, 0, idx);
        this.counts.splice(i, 0, n);
        this.lows.splice(i, 0, lo);
        this.hit = i;
        return;
      }
    }
    this.hit = i;
    this.counts[i]! += n;
    if (lo < this.lows[i]!) this.lows[i] = lo;
  }

  merge(other: LatencyHistogram): void {
    if (other.samples) for (const v of other.samples) this.add(v);
    else {
      if (this.samples) {
        const keep = this.samples;
        this.samples = null;
        for (const v of keep) this.addBucket(v);
      }
      for (let i = 0; i < other.keys.length; i++) this.addTo(other.keys[i]!, other.counts[i]!, other.lows[i]!);
    }
    this.count += other.count;
    this.sum += other.sum;
    if (other.min < this.min || (other.min === this.min && earlier(other.minAt, this.minAt))) {
      this.min = other.min;
      this.minAt = other.minAt;
    }
    if (other.max > this.max || (other.max === this.max && earlier(other.maxAt, this.maxAt))) {
      this.max = other.max;
      this.maxAt = other.maxAt;
    }
  }

  /** The value at quantile q (0..1), clamped to the exact min/max; null when empty. */
  quantile(q: number): number | null {
    if (this.count === 0) return null;
    const rank = Math.max(1, Math.ceil(q * this.count));
    if (this.samples) return round3([...this.samples].sort((a, b) => a - b)[rank - 1]!);
    let seen = 0;
    for (let i = 0; i < this.keys.length; i++) {
      seen += this.counts[i]!;
      if (seen >= rank) return round3(this.lows[i]!);
    }
    return round3(this.max);
  }

  mean(): number | null {
    return this.count === 0 || Number.isNaN(this.sum) ? null : round3(this.sum / this.count);
  }

  /** Every bucket as [lower-bound ms, count], ascending: for charts. */
  distribution(): Array<[number, number]> {
    if (this.samples) {
      const counts = new Map<number, number>();
      for (const v of this.samples) {
        const k = bucketIndex(Math.round(v * 1000));
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      return [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => [bucketLow(k) / 1000, v]);
    }
    return this.keys.map((k, i) => [bucketLow(k) / 1000, this.counts[i]!]);
  }

  /**
   * The whole histogram as plain data (docs/scale-out.md): exact values while there are at most 32,
   * else every bucket with its count and smallest value; min and max raw, with their locations. Two
   * sketches merge (src/merge/sketch.ts) into the sketch of one histogram fed both streams.
   */
  sketch(): LatencySketch | null {
    if (this.count === 0) return null;
    const base = { count: this.count, min: this.min, max: this.max, minAt: this.minAt, maxAt: this.maxAt };
    if (this.samples) return { ...base, values: [...this.samples].sort((a, b) => a - b) };
    const buckets: Array<[number, number, number]> = this.keys.map((k, i) => [k, this.counts[i]!, this.lows[i]!]);
    return { ...base, buckets };
  }

  /** A histogram from its sketch (the latency sum is not kept: `mean()` of a restored histogram is null). */
  static fromSketch(s: LatencySketch): LatencyHistogram {
    const h = new LatencyHistogram();
    h.count = s.count;
    h.min = s.min;
    h.max = s.max;
    h.minAt = s.minAt;
    h.maxAt = s.maxAt;
    h.sum = NaN;
    if (s.values) h.samples = [...s.values];
    else {
      h.samples = null;
      for (const [k, n, lo] of s.buckets ?? []) h.addTo(k, n, lo);
    }
    return h;
  }

  stats(): LatencyStats | null {
    if (this.count === 0) return null;
    return {
      count: this.count,
      min: round3(this.min),
      p50: this.quantile(0.5),
      p90: this.quantile(0.9),
      p99: this.quantile(0.99),
      max: round3(this.max),
      minAt: this.minAt,
      maxAt: this.maxAt,
    };
  }
}

export type { LatencySketch, LatencyStats };

/** Values kept exactly before the buckets take over. */
export const EXACT_SAMPLES = 32;
const SUB = 128; // sub-buckets per power of two; exact below 2·SUB µs

export function bucketIndex(us: number): number {
  if (us < 2 * SUB) return us;
  // An integer below 2^31 (the usual latency): its power of two from its leading zeros, the same
  // exponent as floor(log2) below (checked for every such integer), and a shift for the division.
  if (us < 0x80000000 && (us | 0) === us) {
    const e = 24 - Math.clz32(us); // 31 − clz − 7
    return 2 * SUB + (e - 1) * SUB + ((us >>> e) - SUB);
  }
  const e = Math.floor(Math.log2(us)) - 7; // ≥ 1: us / 2^e lies in [128, 256)
  const m = Math.floor(us / 2 ** e);
  const mm = m >= 2 * SUB ? 2 * SUB - 1 : m < SUB ? SUB : m; // guard float edges
  return 2 * SUB + (e - 1) * SUB + (mm - SUB);
}

function bucketLow(idx: number): number {
  if (idx < 2 * SUB) return idx;
  const e = Math.floor((idx - 2 * SUB) / SUB) + 1;
  const m = ((idx - 2 * SUB) % SUB) + SUB;
  return m * 2 ** e;
}

/** Is location a before b (path in walk order, then line)? A known location is before an unknown one. */
function earlier(a: Loc | null, b: Loc | null): boolean {
  if (a === null) return false;
  if (b === null) return true;
  if (a.path !== b.path) {
    const x = a.path.replaceAll('/', '\u0000');
    const y = b.path.replaceAll('/', '\u0000');
    return x < y;
  }
  return a.line < b.line;
}

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
