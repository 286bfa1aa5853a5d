/**
 * One self-contained HTML file: the summary (per-channel counts, the gate, the worst scopes), a
 * call timeline per scope (worst first), then the findings, and latency per (provider, model). Inline CSS and inline
 * SVG only — no script, no network, no external asset; a strict Content-Security-Policy (the one
 * stylesheet by hash, nothing else) says so to the browser too. Capture strings reach the page only as escaped text (see html/escape.ts).
 *
 * The timeline needs the report's optional `timeline` field (collected when `timeline: true` is
 * passed to analyze; the CLI does that whenever this format is asked for).
 */
import { crypto } from '../builtins.js';
import type { ChannelReport, Report } from '../report/report.js';
import { ARBITRARY_ORDER_TEXT, fifoMeaningless } from '../model.js';
import { FINDING_CODES, SEVERITY_RANK, type Finding } from '../report/findings.js';
import type { TimelineReport } from '../report/timeline.js';
import { esc, msText, pct, text } from './html/escape.js';
import { latencySection } from './html/latency.js';
import { scopeSvg } from './html/timeline.js';
import { NOTE_MAX, safeText } from './safe.js';
import type { Formatter } from './types.js';
import { findingCountText, idCoverageText, RANKING_TEXT, SCOPE_HEAD, scopeRow, WORST_SCOPES_SHOWN } from './present.js';
import { worstScopes } from '../report/worst-scopes.js';

const FINDINGS_SHOWN = 40;
const INPUTS_SHOWN = 50;
/** Characters of timeline SVG past which no further scope is drawn (the page stays well under 5 MB). */
const TIMELINE_BUDGET = 3_000_000;

const CSS = `
:root{--exact:#2e7d32;--unambiguous:#1565c0;--ambiguous:#ef6c00;--orphan:#9e9e9e;--bad:#c62828;--cross:#ad1457;--ink:#1d2430;--dim:#5f6b7a;--line:#d8dee6;--bg:#fff;--panel:#f6f8fa}
*{box-sizing:border-box}
body{margin:0;padding:24px 32px 48px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);background:var(--bg)}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}h3{font-size:15px;margin:18px 0 6px}
.dim{color:var(--dim);font-weight:normal}
code,.mono{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12.5px}
header{display:flex;align-items:center;gap:18px;flex-wrap:wrap}
.gate{display:inline-block;padding:4px 12px;border-radius:14px;font-weight:600;color:#fff}
.gate.pass{background:var(--exact)}.gate.fail{background:var(--bad)}.gate.advisory{background:var(--ambiguous)}
table{border-collapse:collapse;margin:6px 0 12px}
th,td{border-bottom:1px solid var(--line);padding:4px 10px;text-align:left;vertical-align:top}
th{background:var(--panel);font-weight:600}
table.channels th{font-size:12px;line-height:1.25}table.channels td,table.channels th{padding:4px 8px}
figure.latency figcaption .dim{display:block}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.warn{color:var(--ambiguous);font-weight:600}.bad{color:var(--bad);font-weight:600}
.sev-error{color:var(--bad);font-weight:600}.sev-warning{color:var(--ambiguous);font-weight:600}.sev-note{color:var(--dim)}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:12px 0}
.card{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:8px 14px;min-width:120px}
.card b{display:block;font-size:20px}.card span{color:var(--dim);font-size:12px}
.legend{display:flex;flex-wrap:wrap;gap:16px;align-items:center;margin:6px 0 10px;color:var(--dim);font-size:12.5px}
.sw{display:inline-block;width:26px;height:10px;border-radius:2px;vertical-align:middle;margin-right:5px}
.sw.exact{background:var(--exact)}.sw.unambiguous{background:var(--unambiguous)}.sw.ambiguous{background:var(--ambiguous)}
.sw.orphan{background:linear-gradient(90deg,var(--orphan),#eee)}.sw.sig{background:#fff;border:2px dashed var(--ink)}.sw.fifo{background:#fff;border:2px dotted var(--ink)}
.sw.cross{height:0;border-top:2px dashed var(--cross);border-radius:0}
figure.scope{margin:14px 0 26px;padding:10px 12px;border:1px solid var(--line);border-radius:8px;overflow-x:auto}
figure.scope figcaption{margin-bottom:6px}
svg text{font:11.5px system-ui,"DejaVu Sans",sans-serif;fill:var(--ink)}
svg .tick{stroke:#e6eaef}svg .tick-label{fill:var(--dim);text-anchor:middle;font-size:10.5px}
svg .lane-bg{fill:#fff}svg .lane-bg.odd{fill:#f7f9fb}
svg .lane-label{text-anchor:end;font-weight:600}
svg .call .bar{stroke:var(--ink);stroke-width:1;stroke-opacity:.55}
svg .call:hover .bar,svg .call:hover .diamond{stroke-width:2.5;stroke-opacity:1}
svg .c-exact .bar{fill:var(--exact)}svg .c-unambiguous .bar{fill:var(--unambiguous)}svg .c-ambiguous .bar{fill:var(--ambiguous)}
svg .m-signature .bar{stroke-dasharray:5 2;stroke-width:1.6;stroke-opacity:1}svg .m-fifo .bar{stroke-dasharray:1.5 2;stroke-width:1.8;stroke-opacity:1}
svg .k-orphan-request .bar{stroke:var(--bad);stroke-dasharray:4 3}
svg .orphan-mark{fill:var(--bad);font-weight:700}
svg .diamond{fill:#fff;stroke:var(--bad);stroke-width:2}
svg .mark{fill:#fff;stroke:var(--bad);stroke-width:2.2}
svg .err .bar{stroke:var(--bad);stroke-opacity:1;stroke-width:1.6}
svg .crossed-link{fill:none;stroke:var(--cross);stroke-width:1.8;stroke-dasharray:6 3}
svg .crossed-link:hover{stroke-width:3.5}
svg .arrowhead{fill:var(--cross)}
.latency-grid{display:flex;flex-wrap:wrap;gap:14px}
figure.latency{margin:0;padding:8px 10px;border:1px solid var(--line);border-radius:8px}
svg .hist{fill:#7e98b8}svg .axis{stroke:var(--dim)}
svg .pct line{stroke-width:1.5;stroke-dasharray:3 2}svg .pct text{font-size:10.5px;text-anchor:start;font-weight:600}
svg .pct-p50 line{stroke:var(--exact)}svg .pct-p50 text{fill:var(--exact)}
svg .pct-p90 line{stroke:var(--ambiguous)}svg .pct-p90 text{fill:var(--ambiguous)}
svg .pct-p99 line{stroke:var(--bad)}svg .pct-p99 text{fill:var(--bad)}svg .pct text.r{text-anchor:end}
.note{background:#fff8e1;border:1px solid #ffe082;border-radius:6px;padding:6px 10px;margin:8px 0}span.note{display:inline-block;margin:6px 0 2px;padding:3px 8px}
`;

/** Only this exact stylesheet may apply (by hash); no script, no fetch of any kind. */
let cspText: string | undefined;
/** The page's Content-Security-Policy: the stylesheet admitted by its hash. Computed on first use (start-up: no node:crypto for runs without html). */
export function csp(): string {
  return (cspText ??= `default-src 'none'; style-src 'sha256-${crypto().createHash('sha256').update(CSS, 'utf8').digest('base64')}'; base-uri 'none'; form-action 'none'`);
}

function cell(k: string, v: number | string, cls = 'n'): string {
  return `<td class="${cls}" data-k="${esc(k)}">${esc(String(v))}</td>`;
}

function channelRows(ch: ChannelReport, i: number): string {
  const p = ch.pairs;
  const k = (name: string) => `${i}.${name}`;
  const warnIf = (n: number) => (n > 0 ? 'n warn' : 'n');
  return (
    `<tr data-channel="${text(ch.channel)}"><th>${text(ch.channel)}${ch.ordered ? ' <span class="dim">ordered</span>' : ''}</th>` +
    cell(k('scopeCount'), ch.scopeCount) +
    cell(k('requests'), ch.requests) +
    cell(k('terminals'), ch.terminals) +
    cell(k('failed'), ch.failed, warnIf(ch.failed)) +
    cell(k('pairs.total'), p.total) +
    cell(k('pairs.byMethod.id'), p.byMethod.id) +
    cell(k('pairs.byMethod.signature'), p.byMethod.signature) +
    cell(k('pairs.byMethod.fifo'), p.byMethod.fifo) +
    cell(k('pairs.byConfidence.exact'), p.byConfidence.exact) +
    cell(k('pairs.byConfidence.unambiguous'), p.byConfidence.unambiguous) +
    cell(k('pairs.byConfidence.ambiguous'), p.byConfidence.ambiguous, warnIf(p.byConfidence.ambiguous)) +
    cell(k('orphanRequests'), ch.orphanRequests, warnIf(ch.orphanRequests)) +
    cell(k('orphanResponses'), ch.orphanResponses, warnIf(ch.orphanResponses)) +
    (fifoMeaningless(ch.meaning)
      ? `<td class="n" colspan="2" title="${esc(ARBITRARY_ORDER_TEXT)}">— (terminal order is arbitrary)</td>`
      : cell(k('crossed.fifo'), ch.crossed.fifo, warnIf(ch.crossed.fifo)) + cell(k('crossed.comparable'), ch.crossed.comparable)) +
    cell(k('maxInFlight'), ch.maxInFlight, ch.maxInFlight > 1 ? 'n warn' : 'n') +
    `<td class="n">${esc(idCoverageText(ch.idCoverage.requests, ch.meaning))}</td>` +
    `<td class="n">${esc(msText(ch.latencyMs?.p50))}</td><td class="n">${esc(msText(ch.latencyMs?.p99))}</td></tr>`
  );
}

function summary(r: Report): string {
  const out: string[] = [];
  const t = r.totals;
  const calls = r.channels.reduce((n, c) => n + c.pairs.total, 0);
  const crossed = r.channels.reduce((n, c) => n + c.crossed.fifo, 0);
  const orphans = r.channels.reduce((n, c) => n + c.orphanRequests + c.orphanResponses, 0);
  const ambiguous = r.channels.reduce((n, c) => n + c.pairs.byConfidence.ambiguous, 0);
  const card = (k: string, v: number, label: string, bad = false) =>
    `<div class="card"><b class="${bad && v > 0 ? 'warn' : ''}" data-k="${k}">${v}</b><span>${esc(label)}</span></div>`;
  out.push(
    `<div class="cards">${card('totals.lines', t.lines, 'lines read')}${card('totals.records', t.records, 'records')}${card('calls', calls, 'pairs')}${card('crossed', crossed, 'crossed by FIFO', true)}${card('orphans', orphans, 'orphans', true)}${card('ambiguous', ambiguous, 'ambiguous pairs', true)}${card('totals.malformed', t.malformed, 'malformed lines', true)}</div>`,
  );
  out.push('<h3>Channels</h3>');
  if (r.channels.length === 0) out.push('<p class="dim">No channel had any event.</p>');
  else {
    out.push(
      '<table class="channels"><thead><tr><th>channel</th><th>scopes</th><th>requests</th><th>terminals</th><th>failed</th><th>pairs</th><th>by id</th><th>by sig.</th><th>by FIFO</th><th>exact</th><th>unamb.</th><th>ambig.</th><th>orphan req.</th><th>orphan resp.</th><th>crossed (FIFO)</th><th>of id pairs</th><th>max in flight</th><th>id cov.</th><th>p50</th><th>p99</th></tr></thead><tbody>',
    );
    r.channels.forEach((ch, i) => out.push(channelRows(ch, i)));
    out.push('</tbody></table>');
  }
  // Gate.
  out.push('<h3>Gate</h3><table class="gate-checks"><thead><tr><th>check</th><th>limit</th><th>actual</th><th>result</th></tr></thead><tbody>');
  for (const c of r.gate.checks) {
    out.push(
      `<tr><td>${text(c.name)}</td><td class="n">${esc(String(c.limit))}</td><td class="n">${c.actual === null ? 'n/a' : esc(String(c.actual))}</td><td class="${c.passed ? '' : 'bad'}">${c.passed ? 'passed' : 'failed'}</td></tr>`,
    );
  }
  out.push('</tbody></table>');
  const ws = worstScopes(r.channels, WORST_SCOPES_SHOWN);
  if (ws.troubled > 0) {
    out.push(`<h3>Worst scopes <span class="dim">(${ws.list.length} of ${ws.troubled} with trouble; ${esc(RANKING_TEXT)})</span></h3>`);
    out.push(`<table class="worst-scopes"><thead><tr>${SCOPE_HEAD.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>`);
    for (const row of ws.list) {
      const cells = scopeRow(row, (x) => text(x, 80));
      out.push(`<tr>${cells.map((c, i) => (i < 2 ? `<td class="mono">${c}</td>` : `<td class="n">${c}</td>`)).join('')}</tr>`);
    }
    out.push('</tbody></table>');
  }
  if (r.notes.length > 0) out.push(`<h3>Notes</h3><ul>${r.notes.map((n) => `<li>${text(n, NOTE_MAX)}</li>`).join('')}</ul>`);
  return out.join('\n');
}

/** The findings: counts by code (crossed split by baseline), then the worst ones; after the timeline. */
function findingsSection(r: Report): string {
  const out: string[] = [];
  const counts = Object.entries(r.findingCounts) as Array<[keyof typeof FINDING_CODES, number]>;
  if (counts.length === 0) out.push('<p class="dim">No findings.</p>');
  else {
    counts.sort((a, b) => SEVERITY_RANK[FINDING_CODES[a[0]]] - SEVERITY_RANK[FINDING_CODES[b[0]]] || b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    out.push('<table class="finding-counts"><thead><tr><th>code</th><th>severity</th><th>count</th><th>by baseline</th></tr></thead><tbody>');
    for (const [code, n] of counts) {
      const sev = FINDING_CODES[code];
      out.push(
        `<tr><td><code>${esc(code)}</code></td><td class="sev-${sev}">${sev}</td>${cell(`findingCounts.${code}`, n)}<td>${esc(code === 'CROSSED_PAIR' ? findingCountText(r, code).replace(/^\d+ /, '') : '')}</td></tr>`,
      );
    }
    out.push('</tbody></table>');
    const worst = [...r.findings].sort(
      (a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || codeRank(a) - codeRank(b),
    );
    out.push(`<h3>Worst findings <span class="dim">(first ${Math.min(FINDINGS_SHOWN, worst.length)} of ${r.findings.length} listed in the report)</span></h3>`);
    out.push('<table class="findings"><thead><tr><th>severity</th><th>code</th><th>where</th><th>scope</th><th>what</th></tr></thead><tbody>');
    for (const f of worst.slice(0, FINDINGS_SHOWN)) {
      const where = f.locations.slice(0, 3).map((l) => `${safeText(l.path, 160)}:${l.line}${l.pointer ? `#${safeText(l.pointer, 200)}` : ''}`);
      out.push(
        `<tr><td class="sev-${f.severity}">${f.severity}</td><td><code>${esc(f.code)}</code></td><td class="mono">${where.map((w) => esc(w)).join('<br>')}</td><td class="mono">${f.scope === null ? '—' : text(f.scope, 60)}</td><td>${text(f.message, 400)}</td></tr>`,
      );
    }
    out.push('</tbody></table>');
  }
  return out.join('\n');
}

function inputsSection(r: Report): string {
  const out: string[] = [];
  // Inputs.
  out.push('<table class="inputs"><thead><tr><th>path</th><th>profile</th><th>lines</th><th>records</th><th>ignored</th><th>malformed</th><th>oversized</th><th>blank</th><th>duplicates</th></tr></thead><tbody>');
  for (const i of r.inputs.slice(0, INPUTS_SHOWN)) {
    out.push(
      `<tr><td class="mono">${text(i.path, 160)}${i.gzip ? ' <span class="dim">gzip</span>' : ''}</td><td>${text(i.profile)}</td><td class="n">${i.lines}</td><td class="n">${i.records}</td><td class="n">${i.ignored}</td><td class="n">${i.malformed}</td><td class="n">${i.oversized}</td><td class="n">${i.blank}</td><td class="n">${i.duplicates}</td></tr>`,
    );
  }
  out.push('</tbody></table>');
  if (r.inputs.length > INPUTS_SHOWN) out.push(`<p class="dim">…and ${r.inputs.length - INPUTS_SHOWN} more input(s).</p>`);
  return out.join('\n');
}

function codeRank(f: Finding): number {
  return Object.keys(FINDING_CODES).indexOf(f.code);
}

const LEGEND =
  '<div class="legend"><span><i class="sw exact"></i>exact (id)</span><span><i class="sw unambiguous"></i>unambiguous</span><span><i class="sw ambiguous"></i>ambiguous</span>' +
  '<span><i class="sw sig"></i>by signature</span><span><i class="sw fifo"></i>by FIFO</span><span><i class="sw orphan"></i>orphan request (runs to the end, “?”)</span>' +
  '<span>◇ orphan response</span><span><b class="bad">✕</b> error · <b class="bad">◷</b> timeout</span><span><i class="sw cross"></i>crossed: terminal → the request FIFO would have given it</span><span>hover a bar for path:line, caller, id, latency</span></div>';

const OMIT_REASON: Record<string, string> = {
  'past-limit': 'past the limit of scopes drawn (less bad than those shown)',
  'not-kept': 'their calls were let go during the pass to bound memory (a fixed number of scopes is held at once; the least bad make room for the next)',
  'no-calls': 'they hold no call to draw (only interims, redundant or duplicate terminals)',
};

function timelineSection(t: TimelineReport | undefined): string {
  if (!t) return '<p class="dim">This report holds no timeline (analyze with <code>timeline: true</code>; the CLI does so for <code>--format html</code>).</p>';
  const out: string[] = [LEGEND];
  out.push(`<p class="dim">${t.scopes.length} of ${t.scopesTotal} scope(s) drawn, worst first (${esc(RANKING_TEXT)}); at most ${t.maxCallsPerScope} calls per scope.</p>`);
  for (const o of t.omittedScopes) {
    out.push(
      `<p class="note" data-omitted="${o.reason}">${o.count} scope(s) left out: ${esc(OMIT_REASON[o.reason] ?? o.reason)}${o.withProblems > 0 ? `; ${o.withProblems} of them have crossed, orphaned or ambiguous calls (see the findings and the JSON report)` : ''}.</p>`,
    );
  }
  let bytes = 0;
  let cutForSize = 0;
  t.scopes.forEach((s, i) => {
    if (bytes > TIMELINE_BUDGET) {
      cutForSize++;
      return;
    }
    const c = s.counts;
    const facts = [
      `${c.pairs} pair(s)`,
      `${c.crossedFifo} crossed by FIFO`,
      `${c.orphanRequests + c.orphanResponses} orphan(s)`,
      `${c.ambiguous} ambiguous`,
      `max ${c.maxInFlight} in flight`,
    ];
    out.push(`<figure class="scope" data-scope-index="${i}"><figcaption><b>${text(s.channel)}</b> · scope <code>${text(s.scope, 120)}</code> <span class="dim">${esc(facts.join(' · '))}</span>`);
    if (s.axis === 'time') {
      out.push(`<br><span class="dim">axis: time since ${s.start === null ? '—' : esc(new Date(s.start).toISOString())}</span>`);
    } else {
      out.push('<br><span class="note axis-order">No timestamps: the axis is input order (#n is the position of an event among this scope’s drawn events, as read), not time.</span>');
    }
    if (s.omittedCalls) out.push(`<br><span class="note">${s.omittedCalls.count} call(s) of this scope not drawn: ${text(s.omittedCalls.reason, 200)}.</span>`);
    if (s.unlinkedCrossed > 0) out.push(`<br><span class="dim">${s.unlinkedCrossed} crossed pair(s) without a link: the request FIFO would have given them is not drawn.</span>`);
    out.push('</figcaption>');
    const svg = scopeSvg(s, i);
    bytes += svg.length;
    out.push(svg);
    out.push('</figure>');
  });
  if (cutForSize > 0) out.push(`<p class="note" data-omitted="size">${cutForSize} more scope(s) not drawn, to keep this file small (their calls are in the JSON report's timeline).</p>`);
  return out.join('\n');
}

function render(r: Report): string {
  const gateCls = r.gate.passed ? 'pass' : r.gate.enforced ? 'fail' : 'advisory';
  const gateText = r.gate.passed ? 'gate passed' : r.gate.enforced ? 'gate failed' : 'gate failed (advisory)';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp()}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>callpair report</title>
<style>${CSS}</style>
</head>
<body>
<header><h1>callpair report</h1><span class="gate ${gateCls}" data-k="gate.passed" data-passed="${r.gate.passed}">${gateText}</span><span class="dim">${esc(r.tool.name)} ${esc(r.tool.version)} · ${esc(r.schema)} · ${r.inputs.length} input(s)</span></header>
<section id="summary"><h2>Summary</h2>
${summary(r)}
</section>
<section id="timeline"><h2>Timeline</h2>
${timelineSection(r.timeline)}
</section>
<section id="findings"><h2>Findings</h2>
${findingsSection(r)}
</section>
<section id="latency"><h2>Latency</h2>
${latencySection(r.channels, r.timeline?.latency)}
</section>
<section id="inputs"><h2>Inputs</h2>
${inputsSection(r)}
</section>
</body>
</html>
`;
}

export const html: Formatter = {
  name: 'html',
  description: 'one self-contained HTML file: summary, call timeline per scope, latency charts',
  extension: 'html',
  needs: { timeline: true },
  render: (report) => render(report),
};
