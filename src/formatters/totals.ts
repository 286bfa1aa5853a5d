/**
 * Per-channel totals every format carries (docs/ci.md): calls and failed outcomes under the
 * channel's declared failure rule (`ChannelReport.failed`), so all formats agree on them.
 */
import type { Report } from '../report/report.js';

export interface ChannelTotals {
  channel: string;
  requests: number;
  pairs: number;
  failed: number;
}

export function channelTotals(report: Report): ChannelTotals[] {
  return report.channels.map((c) => ({ channel: c.channel, requests: c.requests, pairs: c.pairs.total, failed: c.failed }));
}

/** `llm: 3 pairs, 1 failed; http: …` (channel names are validated short names). */
export function channelTotalsText(report: Report): string {
  return channelTotals(report)
    .map((t) => `${t.channel}: ${t.pairs} pairs, ${t.failed} failed`)
    .join('; ');
}
