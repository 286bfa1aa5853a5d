/**
 * The terminal view: per channel the counts, methods, confidence, orphans, crossed with rate,
 * maxInFlight; latency per (provider, model); the first crossed pairs and orphans with their
 * path:line and callers; finding counts; the gate. Every capture string goes through safeText.
 */
import type { ChalkInstance } from 'chalk';
import type { Report, ChannelReport } from '../report/report.js';
import type { Finding } from '../report/findings.js';
import { FINDING_CODES } from '../report/findings.js';
import type { Formatter } from './types.js';
import { loc, safeText } from './safe.js';
import { assaySection } from './table-assay.js';
import { checkText } from './gate-text.js';
import { failureText } from './failure.js';
import { msText, num, pct, plainTable } from './present.js';

const LIST_LIMIT = 10;

function channelSection(ch: ChannelReport, chalk: ChalkInstance): string {
  const out: string[] = [];
  out.push(chalk.bold.underline(`Channel ${safeText(ch.channel)}`) + chalk.dim(`  ${ch.scopeCount} scope(s)${ch.ordered ? ', ordered' : ''}`));
  const t = plainTable(['', 'count', ''], chalk);
  const p = ch.pairs;
  const warn = (n: number, s: string) => (n > 0 ? chalk.yellow(s) : s);
  t.push(
    ['requests', String(ch.requests), `id coverage ${pct(ch.idCoverage.requests)}`],
    ['terminals', String(ch.terminals), `id coverage ${pct(ch.idCoverage.terminals)}; ${ch.redundant} redundant, ${ch.duplicateTerminals} duplicate`],
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
    [
      'crossed (FIFO)',
      warn(ch.crossed.fifo, String(ch.crossed.fifo)),
      `of ${ch.crossed.comparable} id pairs (${pct(ch.crossed.fifoRate)}); signature-FIFO ${ch.crossed.signature} (${pct(ch.crossed.signatureRate)})`,
    ],
    [
      'max in flight',
      String(ch.maxInFlight),
      // Without times an ordered channel's sides are read one file after the other: not concurrency.
      ch.ordered && ch.latencyMs === null ? 'ordered: sides read file after file' : ch.maxInFlight > 1 ? 'FIFO is unsafe here' : 'FIFO is safe here',
    ],
  );
  out.push(t.toString());
  if (ch.latencyByGroup.length > 0) {
    const [g0, g1] = ch.meaning.groupLabels;
    const lt = plainTable([safeText(g0 ?? '', 40), safeText(g1 ?? '', 40), 'n', 'min', 'p50', 'p90', 'p99', 'max', 'max at'], chalk);
    for (const g of ch.latencyByGroup.slice(0, 20)) {
      lt.push([
        safeText(g.group ?? '—', 40),
        safeText(g.subgroup ?? '', 40),
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
    out.push(lt.toString());
  }
  return out.join('\n');
}

function findingList(title: string, list: Finding[], total: number, row: (f: Finding) => string[], head: string[], chalk: ChalkInstance): string {
  if (total === 0) return '';
  const t = plainTable(head, chalk);
  for (const f of list.slice(0, LIST_LIMIT)) t.push(row(f));
  const more = total - Math.min(list.length, LIST_LIMIT);
  return `${chalk.bold(title)}\n${t.toString()}${more > 0 ? chalk.dim(`\n…and ${more} more (see --format json or callpair pairs)`) : ''}`;
}

function render(report: Report, chalk: ChalkInstance): string {
  const out: string[] = [];
  const tot = report.totals;
  out.push(
    chalk.bold(`callpair ${report.tool.version}`) +
      `  ${report.inputs.length} input(s), ${tot.lines} lines: ${tot.records} records (${tot.ignored} ignored, ${tot.duplicates} duplicates), ${tot.blank} blank, ${tot.malformed} malformed, ${tot.oversized} oversized`,
  );
  if (report.inputs.length > 1 && report.inputs.length <= 20) {
    const it = plainTable(['input', 'profile', 'lines', 'records', 'ignored', 'malformed', 'oversized'], chalk);
    for (const i of report.inputs)
      it.push([safeText(i.path, 80), i.profile, String(i.lines), String(i.records), String(i.ignored), String(i.malformed), String(i.oversized)]);
    out.push(it.toString());
  }
  if (report.channels.length === 0 && Object.keys(report.records).length === 0) out.push(chalk.yellow('No call events found.'));
  for (const ch of report.channels) out.push('', channelSection(ch, chalk));
  const assay = assaySection(report, chalk);
  if (assay) out.push('', assay);

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
      ['terminal', 'caller', 'true request', 'FIFO would take'],
      chalk,
    ),
    findingList(
      'Orphan requests (never closed)',
      by('ORPHAN_REQUEST'),
      count('ORPHAN_REQUEST'),
      (f) => (f.code === 'ORPHAN_REQUEST' ? [loc(f.locations[0]), safeText(f.channel ?? ''), safeText(f.data.caller, 30), f.data.note ? safeText(f.data.note, 60) : f.data.reason === 'evicted' ? 'evicted' : `${msText(f.data.ageMs)} before end`] : []),
      ['request', 'channel', 'caller', ''],
      chalk,
    ),
    findingList(
      'Orphan responses (nothing could take them)',
      by('ORPHAN_RESPONSE'),
      count('ORPHAN_RESPONSE'),
      (f) => (f.code === 'ORPHAN_RESPONSE' ? [loc(f.locations[0]), safeText(f.channel ?? ''), safeText(f.data.caller, 30), f.data.reason] : []),
      ['terminal', 'channel', 'caller', 'reason'],
      chalk,
    ),
    findingList(
      'Ambiguous pairs',
      by('AMBIGUOUS_PAIR'),
      count('AMBIGUOUS_PAIR'),
      (f) => (f.code === 'AMBIGUOUS_PAIR' ? [loc(f.locations[0]), loc(f.locations[1]), safeText(f.data.caller, 30), `${f.data.method} among ${f.data.candidates}`] : []),
      ['terminal', 'request taken', 'caller', ''],
      chalk,
    ),
  ].filter(Boolean);
  if (sections.length) out.push('', sections.join('\n\n'));

  const codes = Object.keys(report.findingCounts) as (keyof typeof FINDING_CODES)[];
  if (codes.length) {
    const ft = plainTable(['finding', 'severity', 'count', 'first at', ''], chalk);
    for (const code of codes) {
      const first = report.findings.find((f) => f.code === code);
      const sev = FINDING_CODES[code];
      const sevText = sev === 'error' ? chalk.red(sev) : sev === 'warning' ? chalk.yellow(sev) : chalk.dim(sev);
      ft.push([code, sevText, String(report.findingCounts[code]), loc(first?.locations[0]), first ? safeText(first.message, 120) : '']);
    }
    out.push('', chalk.bold('Findings'), ft.toString());
  }
  for (const n of report.notes) out.push(chalk.dim(`note: ${safeText(n, 300)}`));

  const g = report.gate;
  const failed = g.checks.filter((c) => !c.passed);
  const gateLine = g.passed
    ? chalk.green(`gate passed (${g.checks.map((c) => c.name).join(', ')})`)
    : chalk.red(`gate failed: ${failed.map(checkText).join('; ')}`) + (g.enforced ? '' : chalk.dim(' (--no-fail)'));
  out.push('', gateLine);
  return out.join('\n') + '\n';
}

export const table: Formatter = {
  name: 'table',
  description: 'human-readable tables for the terminal',
  extension: 'txt',
  render: (report, ctx) => render(report, ctx.chalk),
};
