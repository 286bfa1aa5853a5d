/**
 * Chart buckets: the latency distributions the timeline charts, per channel its largest groups,
 * with histogram buckets merged into a few per power of two.
 */
import type { ChannelSnapshot } from '../../model/snapshot.js';
import { round3 } from '../../stats/histogram.js';
import type { LatencyDistribution } from './types.js';

/** The `maxGroups` largest latency groups of each channel (ties by name), coarsened for a small chart. */
export function latencyCharts(states: Iterable<ChannelSnapshot>, maxGroups: number): LatencyDistribution[] {
  const latency: LatencyDistribution[] = [];
  for (const st of states) {
    const groups = [...st.latencyGroups]
      .sort((a, b) => b.stats.count - a.stats.count || cmpStr(a.group ?? '', b.group ?? '') || cmpStr(a.subgroup ?? '', b.subgroup ?? ''))
      .slice(0, maxGroups);
    for (const g of groups) latency.push({ channel: st.spec.name, group: g.group, subgroup: g.subgroup, buckets: coarsen(g.distribution ?? []) });
  }
  return latency;
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Histogram buckets (64 per power of two) merged into 4 per power of two, for a small chart. */
export function coarsen(dist: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const out = new Map<number, number>();
  for (const [low, n] of dist) {
    const b = low <= 0 ? -Infinity : Math.floor(Math.log2(low) * 4);
    out.set(b, (out.get(b) ?? 0) + n);
  }
  return [...out.entries()].sort((a, b) => a[0] - b[0]).map(([b, n]) => [b === -Infinity ? 0 : round3(2 ** (b / 4)), n]);
}
