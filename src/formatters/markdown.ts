/**
 * Markdown for `$GITHUB_STEP_SUMMARY` and PR comments: the gate result, totals per channel, finding
 * counts, the worst findings first. Tables are cut with "…and N more", and the whole text is kept
 * under a byte budget well below GitHub's 1 MiB step-summary limit (over it, GitHub drops the
 * whole summary). Every capture string is sanitised (safeText) and neutralised (no markup, no
 * links, no HTML).
 */
import type { Finding } from '../report/findings.js';
import type { ChannelReport, Report } from '../report/report.js';
import { CODE_DESCRIPTIONS } from '../report/code-descriptions.js';
import { FINDING_CODES } from '../report/findings.js';
import type { Formatter } from './types.js';
import { safeText } from './safe.js';
import { pct } from './present.js';
import { checkTitle, checkValue, offenderTotal, offenders } from './gate-text.js';

/** Bytes the whole Markdown may take (GitHub's step summary limit is 1 MiB = 1 048 576 bytes). */
export const MARKDOWN_BUDGET = 900 * 1024;
const MAX_FINDING_ROWS = 50;
const MAX_INPUT_ROWS = 20;
const MAX_CHANNEL_ROWS = 20;
const MAX_NOTES = 20;

/**
 * Capture text made inert in Markdown: controls and bidi stripped; `&`, `<`, `>` written as HTML
 * entities (inert in every renderer, even one that ignores backslash escapes before HTML); every
 * other character with a Markdown meaning backslash-escaped; autolinks (`http://`, `www.`,
 * e-mail) broken.
 */
export function mdText(s: string, max = 120): string {
  return safeText(s, max)
    .replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'))
    .replace(/[\\`*_{}[\]!|~@$^]/g, (c) => `\\${c}`)
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/(www)\./gi, '$1\\.');
}

function mdLoc(l: { path: string; line: number } | undefined): string {
  return l ? `${mdText(l.path, 160)}:${l.line}` : '—';
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function table(head: string[], rows: string[][], total = rows.length, what = 'more'): string[] {
  const out = [row(head), row(head.map(() => '---'))];
  for (const r of rows) out.push(row(r));
  if (total > rows.length) out.push('', `…and ${total - rows.length} ${what}`);
  return out;
}

const SEV_ICON: Record<string, string> = { error: '🔴 error', warning: '🟡 warning', note: '⚪ note' };

function channelRow(ch: ChannelReport): string[] {
  const p = ch.pairs;
  return [
    mdText(ch.channel, 40),
    String(ch.requests),
    String(ch.terminals),
    String(ch.failed),
    String(p.total),
    `${p.byMethod.id} / ${p.byMethod.signature} / ${p.byMethod.fifo}${p.byMethod.record ? ` (+ ${p.byMethod.record} record)` : ''}`,
    String(p.byConfidence.ambiguous),
    String(ch.orphanRequests),
    String(ch.orphanResponses),
    `${ch.crossed.fifo} of ${ch.crossed.comparable} (${pct(ch.crossed.fifoRate)})`,
    String(ch.maxInFlight),
    pct(ch.idCoverage.requests),
  ];
}

function findingRow(f: Finding): string[] {
  return [SEV_ICON[f.severity] ?? f.severity, `\`${f.code}\``, mdText(f.channel ?? '—', 40), mdLoc(f.locations[0]), mdText(f.message, 200)];
}

export function renderMarkdown(report: Report): string {
  const out: string[] = [];
  const g = report.gate;
  const failed = g.checks.filter((c) => !c.passed);
  const verdict = g.passed ? '✅ gate passed' : g.enforced ? '❌ gate failed' : '⚠️ gate failed (not enforced: --no-fail)';
  out.push(`## callpair: ${verdict}`, '');
  const t = report.totals;
  out.push(
    `${report.inputs.length} input(s), ${t.lines} lines: ${t.records} records (${t.ignored} ignored, ${t.duplicates} duplicates), ${t.blank} blank, ${t.malformed} malformed, ${t.oversized} oversized. callpair ${mdText(report.tool.version, 20)}.`,
    '',
  );

  out.push('### Gate', '');
  out.push(
    ...table(
      ['check', 'what', 'actual', 'limit', 'result'],
      g.checks.map((c) => [`\`${c.name}\``, checkTitle(c), checkValue(c.actual), `${c.op === '>=' ? '≥' : '≤'} ${checkValue(c.limit)}`, c.passed ? '✅ pass' : '❌ fail']),
    ),
    '',
  );
  for (const c of failed) {
    const off = offenders(report, c);
    if (off.length === 0) continue;
    const shown = off.slice(0, 5).map((f) => mdLoc(f.locations[0]));
    const more = offenderTotal(report, c) - shown.length;
    out.push(`- \`${c.name}\` offenders: ${shown.join(', ')}${more > 0 ? ` …and ${more} more` : ''}`);
  }
  if (failed.some((c) => offenders(report, c).length > 0)) out.push('');

  out.push('### Channels', '');
  if (report.channels.length === 0 && Object.keys(report.records).length === 0) out.push('No call events found.', '');
  else
    out.push(
      ...table(
        ['channel', 'requests', 'terminals', 'failed', 'pairs', 'id / sig / fifo', 'ambiguous', 'orphan req.', 'orphan resp.', 'crossed (FIFO)', 'max in flight', 'id coverage'],
        report.channels.slice(0, MAX_CHANNEL_ROWS).map(channelRow),
        report.channels.length,
        'more channels',
      ),
      '',
    );

  if (report.inputs.length > 1) {
    out.push('### Inputs', '');
    out.push(
      ...table(
        ['input', 'profile', 'lines', 'records', 'ignored', 'malformed', 'oversized'],
        report.inputs
          .slice(0, MAX_INPUT_ROWS)
          .map((i) => [mdText(i.path, 160), mdText(i.profile, 40), String(i.lines), String(i.records), String(i.ignored), String(i.malformed), String(i.oversized)]),
        report.inputs.length,
        'more inputs',
      ),
      '',
    );
  }

  const codes = Object.keys(report.findingCounts) as (keyof typeof FINDING_CODES)[];
  out.push('### Findings', '');
  if (codes.length === 0) out.push('No findings.', '');
  else {
    out.push(
      ...table(
        ['code', 'severity', 'count', 'meaning'],
        codes.map((c) => [`\`${c}\``, SEV_ICON[FINDING_CODES[c]] ?? FINDING_CODES[c], String(report.findingCounts[c] ?? 0), CODE_DESCRIPTIONS[c].title]),
      ),
      '',
    );
    const total = codes.reduce((n, c) => n + (report.findingCounts[c] ?? 0), 0);
    // report.findings is ordered worst first (severity, then code order, then input order).
    const rows = report.findings.slice(0, MAX_FINDING_ROWS);
    out.push('#### Worst findings', '');
    out.push(...table(['severity', 'code', 'channel', 'where', 'what'], rows.map(findingRow), total, 'more (see the JSON or SARIF report)'), '');
  }

  if (report.notes.length) {
    out.push('### Notes', '');
    for (const n of report.notes.slice(0, MAX_NOTES)) out.push(`- ${mdText(n, 300)}`);
    if (report.notes.length > MAX_NOTES) out.push(`- …and ${report.notes.length - MAX_NOTES} more`);
    out.push('');
  }
  return fitBudget(out.join('\n').replace(/\n+$/, '') + '\n');
}

/** Last line of defence: never exceed the budget, cutting at a line boundary. */
function fitBudget(text: string): string {
  if (Buffer.byteLength(text) <= MARKDOWN_BUDGET) return text;
  const note = '\n\n…output cut to stay under the step-summary size limit; see the JSON report.\n';
  let cut = Buffer.from(text).subarray(0, MARKDOWN_BUDGET - note.length - 4).toString('utf8');
  cut = cut.slice(0, cut.lastIndexOf('\n'));
  return cut + note;
}

export const markdown: Formatter = {
  name: 'markdown',
  description: 'summary for $GITHUB_STEP_SUMMARY and PR comments',
  extension: 'md',
  render: (report) => renderMarkdown(report),
};
