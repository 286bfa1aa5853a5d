/**
 * Merging latency sketches (the plain-data form of src/stats/histogram.ts). The merge of two
 * sketches is the sketch of one histogram that saw both streams, whatever the order: counts add,
 * each bucket keeps its smallest value, and a tie for min or max goes to the earlier location
 * (the one a single run over inputs in path order meets first). Why this histogram and not
 * DDSketch: docs/scale-out.md.
 */
import type { Loc } from '../model.js';
import { bucketIndex, EXACT_SAMPLES, LatencyHistogram, type LatencySketch, type LatencyStats } from '../stats/histogram.js';
import { comparePaths } from '../report/findings.js';

export function compareLocs(a: Loc | null, b: Loc | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return comparePaths(a.path, b.path) || a.line - b.line;
}

export function mergeSketches(a: LatencySketch | null, b: LatencySketch | null): LatencySketch | null {
  if (a === null) return b;
  if (b === null) return a;
  const count = a.count + b.count;
  const lowFirst = a.min < b.min || (a.min === b.min && compareLocs(a.minAt, b.minAt) <= 0);
  const highFirst = a.max > b.max || (a.max === b.max && compareLocs(a.maxAt, b.maxAt) <= 0);
  const base = {
    count,
    min: lowFirst ? a.min : b.min,
    max: highFirst ? a.max : b.max,
    minAt: lowFirst ? a.minAt : b.minAt,
    maxAt: highFirst ? a.maxAt : b.maxAt,
  };
  if (a.values && b.values && count <= EXACT_SAMPLES) return { ...base, values: [...a.values, ...b.values].sort((x, y) => x - y) };
  const buckets = new Map<number, [number, number]>();
  const add = (k: number, n: number, lo: number) => {
    const cur = buckets.get(k);
    if (!cur) buckets.set(k, [n, lo]);
    else {
      cur[0] += n;
      if (lo < cur[1]) cur[1] = lo;
    }
  };
  for (const s of [a, b]) {
    if (s.values) for (const v of s.values) add(bucketIndex(Math.round(v * 1000)), 1, v);
    else for (const [k, n, lo] of s.buckets ?? []) add(k, n, lo);
  }
  return { ...base, buckets: [...buckets.keys()].sort((x, y) => x - y).map((k) => [k, buckets.get(k)![0], buckets.get(k)![1]]) };
}

export function sketchStats(s: LatencySketch | null): LatencyStats | null {
  return s === null ? null : LatencyHistogram.fromSketch(s).stats();
}
