/**
 * Latency per (provider, model) — or per tool — as a small distribution chart on a log axis with
 * p50/p90/p99 marked. Reads the report's `latencyByGroup` (the numbers) and `timeline.latency`
 * (the histogram buckets).
 */
import type { ChannelReport, LatencyGroupReport } from '../../report/report.js';
import type { LatencyDistribution } from '../../report/timeline.js';
import { esc, msText, n2, text } from './escape.js';
import { maxOf, minOf } from '../../arrays.js';

const W = 540;
const H = 170;
const L = 44;
const R = 16;
const T = 48;
const B = 28;

function chart(d: LatencyDistribution, g: LatencyGroupReport | undefined): string {
  const buckets = d.buckets.filter(([, n]) => n > 0);
  if (buckets.length === 0) return '';
  const step = 2 ** 0.25;
  const positive = buckets.map(([low]) => low).filter((v) => v > 0);
  const lo = Math.max(Math.min(minOf(positive), g?.min && g.min > 0 ? g.min : Infinity, positive.length ? Infinity : 0.001), 0.001);
  const hi = Math.max(maxOf(buckets.map(([low]) => (low > 0 ? low * step : 0.001))), g?.max ?? 0, lo * step);
  const l0 = Math.log(lo) - 0.15;
  const l1 = Math.log(hi) + 0.05;
  const x = (v: number) => L + ((Math.log(Math.max(v, lo)) - l0) / (l1 - l0)) * (W - L - R);
  const max = maxOf(buckets.map(([, n]) => n));
  const y = (n: number) => H - B - (n / max) * (H - B - T);
  const out: string[] = [];
  out.push(`<svg class="latency-chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="latency distribution">`);
  out.push(`<line class="axis" x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}"/>`);
  // Decade ticks (1, 2, 5 × 10^n); the ends of the axis when none falls inside.
  let tickCount = 0;
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v < Math.exp(l0) || v > Math.exp(l1)) continue;
      const xx = n2(x(v));
      out.push(`<line class="tick" x1="${xx}" x2="${xx}" y1="${H - B}" y2="${H - B + 4}"/><text class="tick-label" x="${xx}" y="${H - B + 16}">${esc(msText(v))}</text>`);
      tickCount++;
    }
  }
  if (tickCount === 0) {
    for (const v of [lo, hi]) {
      const xx = n2(x(v));
      out.push(`<line class="tick" x1="${xx}" x2="${xx}" y1="${H - B}" y2="${H - B + 4}"/><text class="tick-label" x="${xx}" y="${H - B + 16}">${esc(msText(v))}</text>`);
    }
  }
  for (const [low, n] of buckets) {
    const a = low > 0 ? x(low) : x(lo) - 6;
    const b = low > 0 ? x(low * step) : x(lo);
    out.push(`<rect class="hist" x="${n2(a)}" y="${n2(y(n))}" width="${n2(Math.max(1.5, b - a - 1))}" height="${n2(H - B - y(n))}"><title>${esc(`${msText(low)}–${msText(low * step)}: ${n}`)}</title></rect>`);
  }
  if (g) {
    const marks: Array<[string, number | null]> = [
      ['p50', g.p50],
      ['p90', g.p90],
      ['p99', g.p99],
    ];
    marks.forEach(([name, v], i) => {
      if (v === null) return;
      const xx = n2(x(v));
      const right = x(v) > W * 0.72;
      out.push(
        `<g class="pct pct-${name}"><line x1="${xx}" x2="${xx}" y1="${10 + i * 13}" y2="${H - B}"/><text${right ? ' class="r"' : ''} x="${xx}" y="${18 + i * 13}" dx="${right ? -4 : 4}">${name} ${esc(msText(v))}</text></g>`,
      );
    });
  }
  out.push('</svg>');
  return out.join('');
}

export function latencySection(channels: readonly ChannelReport[], dists: readonly LatencyDistribution[] | undefined): string {
  const out: string[] = [];
  let any = false;
  for (const ch of channels) {
    if (ch.latencyByGroup.length === 0) continue;
    any = true;
    const labels = ch.meaning.groupLabels;
    out.push(`<h3>${text(ch.channel)} <span class="dim">per ${labels.length === 1 ? text(labels[0]!, 40) : `(${labels.map((l) => text(l, 40)).join(', ')})`}</span></h3>`);
    out.push('<div class="latency-grid">');
    const shown = dists ? dists.filter((d) => d.channel === ch.channel) : [];
    const groups = shown.length > 0 ? shown.map((d) => ({ d, g: find(ch, d) })) : ch.latencyByGroup.slice(0, 12).map((g) => ({ d: null, g }));
    for (const { d, g } of groups) {
      const label = `${g ? (g.group ?? '—') : (d!.group ?? '—')}${(g ? g.subgroup : d!.subgroup) ? ` · ${g ? g.subgroup : d!.subgroup}` : ''}`;
      out.push(`<figure class="latency" data-group="${text(label, 120)}"><figcaption><b>${text(label, 80)}</b>`);
      if (g) {
        out.push(
          ` <span class="dim">n ${g.count} · min ${esc(msText(g.min))} · p50 ${esc(msText(g.p50))} · p90 ${esc(msText(g.p90))} · p99 ${esc(msText(g.p99))} · max ${esc(msText(g.max))}</span>`,
        );
      }
      out.push('</figcaption>');
      if (d) out.push(chart(d, g));
      out.push('</figure>');
    }
    out.push('</div>');
    if (ch.latencyByGroup.length > groups.length) out.push(`<p class="dim">${ch.latencyByGroup.length - groups.length} more group(s) not charted (the ${groups.length} with the most calls are).</p>`);
  }
  if (!any) return '<p class="dim">No latencies: no pair has a time on both sides.</p>';
  return out.join('\n');
}

function find(ch: ChannelReport, d: LatencyDistribution): LatencyGroupReport | undefined {
  return ch.latencyByGroup.find((g) => g.group === d.group && g.subgroup === d.subgroup);
}
