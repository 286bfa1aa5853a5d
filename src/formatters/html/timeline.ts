/**
 * One scope's call timeline as inline SVG: one lane per caller, a bar per call from request to
 * terminal coloured by confidence and outlined by method, error/timeout marks, orphan requests
 * fading to the end of the scope, orphan responses as diamonds, and for every crossed pair an
 * arrow from its terminal to the request plain FIFO would have given it. Hover text comes from
 * SVG `<title>` elements (no script). Every capture string is escaped text.
 */
import type { TimelineCall, TimelineScope } from '../../report/timeline.js';
import { safeText } from '../safe.js';
import { esc, msText, n2, text, titleLines } from './escape.js';

const W = 1100;
const GUTTER = 180;
const RIGHT = 24;
const TOP = 30;
const ROW = 22;
const LANE_PAD = 10;
const MAX_ROWS = 6;

function locText(l: { path: string; line: number }): string {
  return `${safeText(l.path, 120)}:${l.line}`;
}

function tip(c: TimelineCall, axis: TimelineScope['axis']): string {
  const lines: string[] = [];
  const what =
    c.kind === 'pair'
      ? `${c.confidence} pair by ${c.method}${c.crossed ? ' · FIFO crossed' : ''}`
      : c.kind === 'orphan-request'
        ? `orphan request (${c.reason === 'evicted' ? 'evicted while open' : 'never closed'})`
        : `orphan response (${c.reason === null ? 'nothing could take it' : safeText(c.reason, 60)})`;
  lines.push(`caller ${safeText(c.caller, 80)} · ${what}`);
  if (c.request) lines.push(`request  ${locText(c.request.loc)}`);
  if (c.terminal) lines.push(`terminal ${locText(c.terminal.loc)}`);
  if (c.id !== null) lines.push(`id ${safeText(c.id, 128)}`);
  const sig = [c.provider, c.model, c.tool].filter((x): x is string => x !== null).map((x) => safeText(x, 60));
  if (sig.length > 0) lines.push(sig.join(' · '));
  if (c.kind === 'pair') lines.push(`latency ${c.latencyMs === null ? (axis === 'time' ? 'unknown' : 'unknown (no timestamps)') : msText(c.latencyMs)}`);
  if (c.status !== null) lines.push(`status ${safeText(c.status, 40)}${c.timeout ? ' (timeout)' : ''}`);
  if (c.errorText !== null) lines.push(`error ${safeText(c.errorText, 160)}`);
  return titleLines(lines);
}

/** Rows inside each lane so that overlapping calls of one caller do not hide each other. */
function assignRows(s: TimelineScope): { row: number[]; rows: number[] } {
  const rows = s.lanes.map(() => 1);
  const ends: number[][] = s.lanes.map(() => []);
  const row = s.calls.map((c) => {
    const start = c.request ? c.request.t : c.end;
    const laneEnds = ends[c.lane]!;
    let r = laneEnds.findIndex((e) => e < start);
    if (r < 0) r = laneEnds.length < MAX_ROWS ? laneEnds.length : MAX_ROWS - 1;
    laneEnds[r] = Math.max(laneEnds[r] ?? -Infinity, c.end);
    rows[c.lane] = Math.max(rows[c.lane]!, r + 1);
    return r;
  });
  return { row, rows };
}

function ticks(span: number, axis: TimelineScope['axis']): number[] {
  if (span <= 0) return [0];
  const target = 8;
  const raw = span / target;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((st) => st >= raw) ?? 10 * mag;
  const st = axis === 'input-order' ? Math.max(1, Math.round(step)) : step;
  const out: number[] = [];
  for (let t = 0; t <= span + 1e-9 && out.length < 30; t += st) out.push(t);
  return out;
}

export function scopeSvg(s: TimelineScope, idx: number): string {
  const { row, rows } = assignRows(s);
  const laneTop: number[] = [];
  let y = TOP;
  for (const r of rows) {
    laneTop.push(y);
    y += r * ROW + LANE_PAD;
  }
  const height = y + 8;
  const span = s.span > 0 ? s.span : 1;
  const x = (t: number) => GUTTER + (Math.min(Math.max(t, 0), span) / span) * (W - GUTTER - RIGHT);
  const cy = (i: number) => laneTop[s.calls[i]!.lane]! + LANE_PAD / 2 + row[i]! * ROW + ROW / 2;
  const id = `s${idx}`;
  const out: string[] = [];
  out.push(
    `<svg class="timeline" role="img" aria-label="call timeline" viewBox="0 0 ${W} ${n2(height)}" width="${W}" height="${n2(height)}" xmlns="http://www.w3.org/2000/svg">`,
  );
  out.push(
    `<defs><marker id="${id}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="arrowhead"/></marker>` +
      `<linearGradient id="${id}-fade" x1="0" x2="1" y1="0" y2="0"><stop offset="0" stop-color="#9e9e9e"/><stop offset="1" stop-color="#9e9e9e" stop-opacity="0.15"/></linearGradient></defs>`,
  );
  // Axis.
  for (const t of ticks(s.span, s.axis)) {
    const xx = n2(x(t));
    const label = s.axis === 'time' ? (t === 0 ? '0' : `+${msText(t)}`) : `#${Math.round(t)}`;
    out.push(`<line class="tick" x1="${xx}" x2="${xx}" y1="${TOP - 6}" y2="${n2(height - 8)}"/><text class="tick-label" x="${xx}" y="${TOP - 10}">${esc(label)}</text>`);
  }
  // Lanes.
  s.lanes.forEach((caller, i) => {
    const top = laneTop[i]!;
    const h = rows[i]! * ROW + LANE_PAD;
    out.push(
      `<g class="lane" data-lane="${i}"><rect class="lane-bg${i % 2 ? ' odd' : ''}" x="0" y="${n2(top)}" width="${W}" height="${n2(h)}"/>` +
        `<text class="lane-label" x="${GUTTER - 18}" y="${n2(top + h / 2 + 4)}"><title>${text(caller, 400)}</title>${text(caller, 26)}</text></g>`,
    );
  });
  // Calls.
  s.calls.forEach((c, i) => {
    const yc = cy(i);
    const cls = ['call', `k-${c.kind}`];
    if (c.confidence) cls.push(`c-${c.confidence}`);
    if (c.method) cls.push(`m-${c.method}`);
    if (c.error) cls.push('err');
    if (c.timeout) cls.push('timeout');
    if (c.crossed) cls.push('crossed');
    const parts: string[] = [`<g class="${cls.join(' ')}" data-lane="${c.lane}" data-call="${i}"><title>${tip(c, s.axis)}</title>`];
    if (c.kind === 'orphan-response') {
      const xx = x(c.terminal!.t);
      parts.push(`<path class="diamond" d="M${n2(xx)} ${n2(yc - 6)}l6 6l-6 6l-6 -6z"/>`);
    } else {
      const x1 = x(c.request!.t);
      const x2 = Math.max(x(c.end), x1 + 3);
      const fill = c.kind === 'orphan-request' ? ` fill="url(#${id}-fade)"` : '';
      parts.push(`<rect class="bar" x="${n2(x1)}" y="${n2(yc - 7)}" width="${n2(x2 - x1)}" height="14" rx="2"${fill}/>`);
      if (c.kind === 'orphan-request') parts.push(`<text class="orphan-mark" x="${n2(x2 + 3)}" y="${n2(yc + 4)}">?</text>`);
      else if (c.timeout) parts.push(`<circle class="mark" cx="${n2(x2)}" cy="${n2(yc)}" r="5"/><path class="mark" d="M${n2(x2)} ${n2(yc - 3)}v3h3"/>`);
      else if (c.error) parts.push(`<path class="mark" d="M${n2(x2 - 4)} ${n2(yc - 4)}l8 8m0 -8l-8 8"/>`);
    }
    parts.push('</g>');
    out.push(parts.join(''));
  });
  // Crossed links: terminal → the request FIFO would have given it.
  s.calls.forEach((c, i) => {
    if (!c.crossed || c.fifoPartner === null || !c.terminal) return;
    const p = s.calls[c.fifoPartner];
    if (!p || !p.request) return;
    const x1 = x(c.end);
    const y1 = cy(i);
    const x2 = x(p.request.t);
    const y2 = cy(c.fifoPartner);
    const bend = Math.max(24, Math.abs(y2 - y1) / 2);
    // Within one row the link bows above the bars; across rows it is an S from terminal to request.
    const d =
      Math.abs(y2 - y1) < 1
        ? `M${n2(x1)} ${n2(y1 - 7)}C${n2(x1)} ${n2(y1 - 22)},${n2(x2)} ${n2(y2 - 22)},${n2(x2)} ${n2(y2 - 7)}`
        : `M${n2(x1)} ${n2(y1)}C${n2(x1 + bend)} ${n2(y1)},${n2(x2 - bend)} ${n2(y2)},${n2(x2)} ${n2(y2)}`;
    const t = titleLines([
      `FIFO would have given the terminal at ${locText(c.terminal.loc)} (caller ${safeText(c.caller, 80)})`,
      `to the request at ${locText(p.request.loc)} (caller ${safeText(p.caller, 80)})`,
      `true partner: ${c.request ? locText(c.request.loc) : '—'}`,
    ]);
    out.push(`<path class="crossed-link" d="${d}" marker-end="url(#${id}-arrow)" data-from="${i}" data-to="${c.fifoPartner}"><title>${t}</title></path>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
