/**
 * The terminal view: per channel the counts, methods, confidence, orphans, crossed with rate,
 * maxInFlight; latency per (provider, model); the first crossed pairs and orphans with their
 * path:line and callers; finding counts; the gate. Every capture string goes through safeText.
 */
import type { ChalkInstance } from 'chalk';
import type { Report, ChannelReport } from '../report/report.js';
import { ARBITRARY_ORDER_TEXT, fifoMeaningless } from '../model.js';
import type { Finding } from '../report/findings.js';
import { bySeverity, FINDING_CODES, isFindingCode } from '../report/findings.js';
import type { Formatter } from './types.js';
import { loc, messageText, NOTE_MAX, safeText } from './safe.js';
import { assaySection } from './table-assay.js';
import { checkFailure, gateVerdict } from './gate-text.js';
import { deliveryAudit, deliveryLine } from './delivery-verdict.js';
import { failureText } from './failure.js';
import { crossedByBaseline, type ColumnFit, fittedTable, fitText, hiddenNote, beforeEndText, idCoverageText, msText, num, pct, RANKING_TEXT, SCOPE_HEAD, scopeRow, WORST_SCOPES_SHOWN } from './present.js';
import { worstScopes } from '../report/worst-scopes.js';
import { NO_COLOR } from './plain.js';

const LIST_LIMIT = 10;

/** `manyFiles`: the run read more than one input, so an ordered channel's sides may be files read one after the other. */
function channelSection(ch: ChannelReport, chalk: ChalkInstance, width: number | undefined, manyFiles: boolean, hidden: string[]): string {
  const out: string[] = [];
  out.push(chalk.bold.underline(`Channel ${safeText(ch.channel)}`) + chalk.dim(`  ${ch.scopeCount} scope(s)${ch.ordered ? ', ordered' : ''}`));
  const t: string[][] = [];
  const p = ch.pairs;
  const warn = (n: number, s: string) => (n > 0 ? chalk.yellow(s) : s);
  t.push(
    ['requests', String(ch.requests), `id coverage ${idCoverageText(ch.idCoverage.requests, ch.meaning)}`],
    ['terminals', String(ch.terminals), `id coverage ${idCoverageText(ch.idCoverage.terminals, ch.meaning)}; ${ch.redundant} redundant, ${ch.duplicateTerminals} duplicate`],
    ['failed', warn(ch.failed, String(ch.failed)), `when ${failureText(ch.meaning.failure)}`],
    ['interims', String(ch.interims), `${ch.unattributedInterims} unattributed`],
    ['pairs', String(p.total), `id ${p.byMethod.id} · signature ${p.byMethod.signature} · fifo ${p.byMethod.fifo}${p.byMethod.record ? ` · record ${p.byMethod.record}` : ''}`],
    [
      'confidence',
      '',
      `exact ${p.byConfidence.exact} · unambiguous ${p.byConfidence.unambiguous} · ${warn(p.byConfidence.ambiguous, `ambiguous ${p.byConfidence.ambiguous}`)}`,
    ],
    ['orphan requests', warn(ch.orphanRequests, String(ch.orphanRequests)), ch.evictedRequests ? `${ch.evictedRequests} evicted` : ''],
    ['orphan responses', warn(ch.orphanResponses, String(ch.orphanResponses)), ''],
    fifoMeaningless(ch.meaning)
      ? ['crossed (FIFO)', '—', ARBITRARY_ORDER_TEXT]
      : [
          'crossed (FIFO)',
          warn(ch.crossed.fifo, String(ch.crossed.fifo)),
          `of ${ch.crossed.comparable} id pairs (${pct(ch.crossed.fifoRate)}); signature-FIFO ${ch.crossed.signature} (${pct(ch.crossed.signatureRate)})`,
        ],
    [
      'max in flight',
      String(ch.maxInFlight),
      // Without times an ordered channel's sides are read one file after the other: not concurrency
      // (said only when there were files to read one after the other).
      fifoMeaningless(ch.meaning)
        ? 'terminal order is arbitrary'
        : ch.ordered && ch.latencyMs === null && manyFiles
          ? 'ordered: sides read file after file'
          : ch.pairs.total > 0 && ch.pairs.byMethod.record === ch.pairs.total && ch.orphanRequests === 0 && ch.orphanResponses === 0
            ? 'each call is one record: none paired by order'
            : ch.maxInFlight > 1
              ? 'FIFO is unsafe here'
              : 'FIFO is safe here',
    ],
  );
  out.push(fittedTable(['', 'count', ''], t, chalk, { width, hidden }));
  if (ch.latencyByGroup.length > 0) {
    const [g0, g1] = ch.meaning.groupLabels;
    const lt: string[][] = [];
    for (const g of ch.latencyByGroup.slice(0, 20)) {
      lt.push([
        // Whole (capture strings are at most 1 024, src/profiles/clip.ts): fitting a width cuts them.
        safeText(g.group ?? '—', Infinity),
        safeText(g.subgroup ?? '', Infinity),
        String(g.count),
        msText(g.min),
        msText(g.p50),
        msText(g.p90),
        msText(g.p99),
        msText(g.max),
        loc(g.maxAt),
      ]);
    }
    out.push(chalk.bold('Latency') + (ch.latencyByGroup.length > 20 ? chalk.dim(` (first 20 of ${ch.latencyByGroup.length})`) : ''));
    // Dropped first on a narrow terminal: where the maximum is, the minimum, p90, the subgroup.
    const head = [safeText(g0 ?? '', 40), safeText(g1 ?? '', 40), 'n', 'min', 'p50', 'p90', 'p99', 'max', 'max at'];
    // Labels (a model, a host) are shortened in the middle, never until two look alike, before a
    // column is hidden.
    const columns: (ColumnFit | undefined)[] = [LABEL, LABEL];
    // A profile with one group path has no subgroup: no second, unnamed column.
    if (g1 === undefined && ch.latencyByGroup.every((g) => !g.subgroup)) {
      const one = <T,>(xs: readonly T[]) => xs.filter((_, i) => i !== 1);
      out.push(fittedTable(one(head), lt.map(one), chalk, { width, columns: one(columns), drop: [7, 2, 4], hidden }));
    } else out.push(fittedTable(head, lt, chalk, { width, columns, drop: [8, 3, 5, 1], hidden }));
  }
  return out.join('\n');
}

interface ListSpec {
  head: string[];
  /** Per column: its priority and kind on a narrow terminal (present.ts `ColumnFit`). */
  columns: (ColumnFit | undefined)[];
}

const LOC: ColumnFit = { kind: 'location' };
const LABEL: ColumnFit = { kind: 'id' };

function findingList(title: string, list: Finding[], total: number, row: (f: Finding) => string[], spec: ListSpec, chalk: ChalkInstance, width: number | undefined, hidden: string[]): string {
  if (total === 0) return '';
  const rows = list.slice(0, LIST_LIMIT).map(row);
  const more = total - Math.min(list.length, LIST_LIMIT);
  return `${chalk.bold(title)}\n${fittedTable(spec.head, rows, chalk, { width, columns: spec.columns, hidden })}${more > 0 ? chalk.dim(`\n…and ${more} more (see --format json or callpair pairs)`) : ''}`;
}

function render(report: Report, chalk: ChalkInstance, width: number | undefined): string {
  const out: string[] = [];
  /** The columns every table hid, for the one `--wide` note after the last table. */
  const hidden: string[] = [];
  const tot = report.totals;
  out.push(
    chalk.bold(`callpair ${report.tool.version}`) +
      `  ${report.inputs.length} input(s), ${tot.lines} lines: ${tot.records} records (${tot.ignored} ignored, ${tot.duplicates} duplicates), ${tot.blank} blank, ${tot.malformed} malformed, ${tot.oversized} oversized`,
  );
  if (report.inputs.length > 1 && report.inputs.length <= 20) {
    const it = report.inputs.map((i) => [safeText(i.path, 80), i.profile, String(i.lines), String(i.records), String(i.ignored), String(i.malformed), String(i.oversized)]);
    out.push(fittedTable(['input', 'profile', 'lines', 'records', 'ignored', 'malformed', 'oversized'], it, chalk, { width, drop: [6, 5, 4, 1], hidden }));
  }
  if (report.channels.length === 0 && Object.keys(report.records).length === 0) out.push(chalk.yellow('No call events found.'));
  for (const ch of report.channels) out.push('', channelSection(ch, chalk, width, report.inputs.length > 1, hidden));
  const assay = assaySection(report, chalk, width, hidden);
  if (assay) out.push('', assay);

  const ws = worstScopes(report.channels, WORST_SCOPES_SHOWN);
  if (ws.troubled > 0) {
    const listed = report.channels.reduce((n, c) => n + c.scopes.length, 0);
    const all = report.channels.reduce((n, c) => n + c.scopeCount, 0);
    out.push(
      '',
      chalk.bold('Worst scopes') +
        chalk.dim(` (${ws.list.length} of ${ws.troubled} with trouble${listed < all ? ` among the ${listed} listed of ${all}` : ''}; ${RANKING_TEXT})`),
      fittedTable([...SCOPE_HEAD], ws.list.map((r) => scopeRow(r, (x) => safeText(x, 400))), chalk, { width, columns: [{ priority: 1 }, { kind: 'id' }, undefined, undefined, undefined, undefined, { priority: 0 }], hidden }),
    );
  }

  const by = (code: string) => report.findings.filter((f) => f.code === code);
  const count = (code: keyof typeof FINDING_CODES) => report.findingCounts[code] ?? 0;
  const crossed = by('CROSSED_PAIR').filter((f) => f.code === 'CROSSED_PAIR' && f.data.shadow === 'fifo');
  const crossedTotal = report.channels.reduce((n, c) => n + c.crossed.fifo, 0);
  const sections = [
    findingList(
      'Crossed pairs (FIFO would pair wrongly)',
      crossed,
      crossedTotal,
      (f) =>
        f.code === 'CROSSED_PAIR'
          ? [loc(f.locations[0]), safeText(f.data.terminalCaller, 30), `${loc(f.locations[1])} ${safeText(f.data.trueCaller, 30)}`, f.locations[2] ? `${loc(f.locations[2])} ${safeText(f.data.shadowCaller ?? '', 30)}` : '(none open)']
          : [],
      { head: ['terminal', 'caller', 'true request', 'FIFO would take'], columns: [LOC, { priority: 1 }, LOC, LOC] },
      chalk,
      width,
      hidden,
    ),
    findingList(
      'Orphan requests (never closed)',
      by('ORPHAN_REQUEST'),
      count('ORPHAN_REQUEST'),
      (f) => (f.code === 'ORPHAN_REQUEST' ? [loc(f.locations[0]), safeText(f.channel ?? ''), safeText(f.data.caller, 30), f.data.note ? safeText(f.data.note, 60) : f.data.reason === 'evicted' ? 'evicted' : beforeEndText(f.data.ageMs)] : []),
      { head: ['request', 'channel', 'caller', 'left open'], columns: [LOC, { priority: 1 }, undefined, { priority: 2, kind: 'message' }] },
      chalk,
      width,
      hidden,
    ),
    findingList(
      'Orphan responses (nothing could take them)',
      by('ORPHAN_RESPONSE'),
      count('ORPHAN_RESPONSE'),
      (f) => (f.code === 'ORPHAN_RESPONSE' ? [loc(f.locations[0]), safeText(f.channel ?? ''), safeText(f.data.caller, 30), safeText(f.data.reason, 40)] : []),
      { head: ['terminal', 'channel', 'caller', 'reason'], columns: [LOC, { priority: 1 }, undefined, { priority: 2, kind: 'message' }] },
      chalk,
      width,
      hidden,
    ),
    findingList(
      'Ambiguous pairs',
      by('AMBIGUOUS_PAIR'),
      count('AMBIGUOUS_PAIR'),
      (f) => (f.code === 'AMBIGUOUS_PAIR' ? [loc(f.locations[0]), loc(f.locations[1]), safeText(f.data.caller, 30), `${f.data.method} among ${f.data.candidates}`] : []),
      { head: ['terminal', 'request taken', 'caller', 'pairing'], columns: [LOC, LOC, { priority: 1 }, { kind: 'message' }] },
      chalk,
      width,
      hidden,
    ),
  ].filter(Boolean);
  if (sections.length) out.push('', sections.join('\n\n'));

  // Errors first, then warnings, then notes (the order of `findings`).
  const codes = bySeverity(Object.keys(report.findingCounts).filter(isFindingCode));
  const b = report.baseline;
  /** With --baseline: how many of a code's listed findings are new. */
  const newOf = (code: string, shadow?: string) =>
    b ? String(report.findings.filter((f, i) => f.code === code && b.states[i] === 'new' && (shadow === undefined || (f.code === 'CROSSED_PAIR' && f.data.shadow === shadow))).length) : '';
  if (codes.length || b) {
    const ft: string[][] = [];
    for (const code of codes) {
      const first = report.findings.find((f) => f.code === code);
      const sev = FINDING_CODES[code];
      const sevText = sev === 'error' ? chalk.red(sev) : sev === 'warning' ? chalk.yellow(sev) : chalk.dim(sev);
      if (code === 'CROSSED_PAIR') {
        // One row per baseline, so the count says which (the same numbers as crossed.fifo / .signature).
        const split = crossedByBaseline(report.channels);
        for (const [shadow, label, n] of [['fifo', 'FIFO', split.fifo], ['signature', 'signature-FIFO', split.signature]] as const) {
          if (n === 0) continue;
          const f1 = report.findings.find((f) => f.code === 'CROSSED_PAIR' && f.data.shadow === shadow);
          ft.push([`${code} (${label})`, sevText, String(n), newOf(code, shadow), loc(f1?.locations[0]), f1 ? messageText(f1.message) : '']);
        }
        continue;
      }
      ft.push([code, sevText, String(report.findingCounts[code]), newOf(code), loc(first?.locations[0]), first ? messageText(first.message) + reasonsTally(report, code) : '']);
    }
    const head = ['finding', 'severity', 'count', 'new', 'first at', 'message'];
    // Location and severity outrank the message; the message is cut first, and dropped first.
    const columns: ColumnFit[] = [{}, { priority: 3 }, {}, {}, { priority: 2, kind: 'location' }, { priority: 1, kind: 'message' }];
    const keep = b ? [0, 1, 2, 3, 4, 5] : [0, 1, 2, 4, 5];
    out.push('', chalk.bold('Findings'));
    if (b) {
      out.push(
        `Since the baseline: ${b.counts.new} new, ${b.counts.fixed} fixed, ${b.counts.unchanged} unchanged finding(s)${b.complete ? '' : ' (listed findings only: a report left some out)'}${b.failOnNew ? '; the gate counts new findings only' : ''}`,
      );
    }
    if (ft.length) out.push(fittedTable(keep.map((i) => head[i]!), ft.map((r) => keep.map((i) => r[i]!)), chalk, { width, columns: keep.map((i) => columns[i]), hidden }));
  }
  const note = hiddenNote(hidden, chalk);
  if (note) out.push(note);
  for (const n of report.notes) out.push(chalk.dim(`note: ${safeText(n, NOTE_MAX)}`));

  const g = report.gate;
  const delivery = deliveryAudit(report);
  if (delivery !== null) {
    const line = deliveryLine(report)!;
    out.push('', delivery.level === 'warning' ? chalk.yellow(line) : line);
  }
  const gateLine = g.passed ? chalk.green(gateVerdict(g)) : chalk.red(gateVerdict(g));
  out.push('', gateLine);
  // Each failed check in words: what failed, as JUnit, GitHub and Markdown say it (gate-text.ts).
  for (const c of g.checks) if (!c.passed) out.push(chalk.red(`  ✗ ${checkFailure(c)}`));
  return fitText(out.join('\n'), width) + '\n';
}

/**
 * A row shows its code's first message; when the listed findings of the code give several reasons
 * (orphans evicted and never answered), they are tallied, so the first one's is not read as all's.
 */
function reasonsTally(report: Report, code: string): string {
  const n = new Map<string, number>();
  let listed = 0;
  for (const f of report.findings) {
    if (f.code !== code) continue;
    listed++;
    // The cause (DELIVERY_UNVERIFIED) and the reason, as each finding gives them.
    const d = f.data as { cause?: unknown; reason?: unknown };
    const r = [d.cause, d.reason].filter((x): x is string => typeof x === 'string').join(' ') || 'other';
    n.set(r, (n.get(r) ?? 0) + 1);
  }
  if (n.size < 2) return '';
  const of = listed < (report.findingCounts[code as keyof Report['findingCounts']] ?? 0) ? ` of the ${listed} listed` : '';
  return ` — reasons${of}: ${[...n].map(([r, k]) => `${safeText(r, 40)} ${k}`).join(', ')}`;
}

export const table: Formatter = {
  name: 'table',
  description: 'human-readable tables for the terminal',
  extension: 'txt',
  render: (report, ctx) => render(report, ctx.chalk ?? NO_COLOR, ctx.width),
};
