/**
 * Markdown for `$GITHUB_STEP_SUMMARY` and PR comments: the gate result, totals per channel, the
 * worst scopes, finding counts with what to do, errors and warnings one by one, notes grouped by code. Tables are cut with "…and N more", and the whole text is kept
 * under a byte budget well below GitHub's 1 MiB step-summary limit (over it, GitHub drops the
 * whole summary). Every capture string is sanitised (safeText) and neutralised (no markup, no
 * links, no HTML).
 */
import type { Finding } from '../report/findings.js';
import type { ChannelReport, Report } from '../report/report.js';
import { fifoMeaningless } from '../model.js';
import type { ReportBaseline } from '../merge/diff.js';
import { CODE_DESCRIPTIONS } from '../report/code-descriptions.js';
import { bySeverity, FINDING_CODES } from '../report/findings.js';
import type { Formatter } from './types.js';
import { messageText, NOTE_MAX, safeText } from './safe.js';
import { deliveryAudit, deliveryLine } from './delivery-verdict.js';
import { findingCountText, idCoverageText, pct, RANKING_TEXT, UNKNOWN, SCOPE_HEAD, scopeRow, WORST_SCOPES_SHOWN } from './present.js';
import { worstScopes } from '../report/worst-scopes.js';
import { checkFailureWhy, checkTitle, checkValue, offenderTotal, offenders } from './gate-text.js';

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
    .replace(/[\\`*_{}[\]!|~@$^#]/g, (c) => `\\${c}`)
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/(www)\./gi, '$1\\.');
}

/** `path:line`, and `#pointer` when the record has one (src/formatters/safe.ts `loc`). */
function mdLoc(l: { path: string; line: number; pointer?: string } | undefined): string {
  return l ? `${mdText(l.path, 160)}:${l.line}${l.pointer ? mdText(`#${l.pointer}`, 200) : ''}` : '—';
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
    fifoMeaningless(ch.meaning) ? '— (terminal order is arbitrary)' : `${ch.crossed.fifo} of ${ch.crossed.comparable} (${pct(ch.crossed.fifoRate)})`,
    String(ch.maxInFlight),
    idCoverageText(ch.idCoverage.requests, ch.meaning),
  ];
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

function findingRow(f: Finding): string[] {
  const scope = f.scope === null ? '—' : `${f.channel ? `${mdText(f.channel, 40)} ` : ''}${mdText(f.scope === '' ? '(none)' : f.scope, 60)}`;
  return [SEV_ICON[f.severity] ?? f.severity, `\`${f.code}\``, scope, mdLoc(f.locations[0]), mdText(messageText(f.message), Infinity)];
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
  const delivery = deliveryAudit(report);
  if (delivery !== null) out.push(`${delivery.level === 'warning' ? '⚠️ ' : ''}${mdText(deliveryLine(report)!, 400)}`, '');

  out.push('### Gate', '');
  out.push(
    ...table(
      ['check', 'what', 'actual', 'limit', 'result'],
      g.checks.map((c) => [`\`${c.name}\``, c.passed ? checkTitle(c) : checkFailureWhy(c), checkValue(c.actual), `${c.op === '>=' ? '≥' : '≤'} ${checkValue(c.limit)}`, c.passed ? '✅ pass' : '❌ fail']),
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

  if (report.baseline) out.push(...baselineMarkdown(report.baseline, report.findings), '');

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

  const ws = worstScopes(report.channels, WORST_SCOPES_SHOWN);
  if (ws.troubled > 0) {
    out.push('### Worst scopes', '');
    out.push(`${ws.list.length} of ${ws.troubled} scope(s) with trouble, ${RANKING_TEXT}.`, '');
    out.push(...table([...SCOPE_HEAD], ws.list.map((r) => scopeRow(r, (x) => mdText(x, 80)))), '');
  }

  // Codes in severity order (errors, then warnings, then notes): FINDING_CODES is in that order.
  const codes = bySeverity((Object.keys(FINDING_CODES) as (keyof typeof FINDING_CODES)[]).filter((c) => (report.findingCounts[c] ?? 0) > 0));
  out.push('### Findings', '');
  if (codes.length === 0) out.push('No findings.', '');
  else {
    out.push(
      ...table(
        ['code', 'severity', 'count', 'meaning: what to do'],
        codes.map((c) => [`\`${c}\``, SEV_ICON[FINDING_CODES[c]] ?? FINDING_CODES[c], findingCountText(report, c), `${CODE_DESCRIPTIONS[c].title}: ${lowerFirst(CODE_DESCRIPTIONS[c].action)}`]),
      ),
      '',
    );
    // Errors and warnings one by one (report.findings is ordered by severity, then code, then input order).
    const serious = report.findings.filter((f) => f.severity !== 'note');
    const seriousTotal = codes.filter((c) => FINDING_CODES[c] !== 'note').reduce((n, c) => n + (report.findingCounts[c] ?? 0), 0);
    if (seriousTotal > 0) {
      out.push('#### Errors and warnings', '');
      out.push(...table(['severity', 'code', 'scope', 'where', 'what'], serious.slice(0, MAX_FINDING_ROWS).map(findingRow), seriousTotal, 'more (see the JSON or SARIF report)'), '');
    }
    // Notes grouped by code: how many, in which scopes, where first.
    const noteCodes = codes.filter((c) => FINDING_CODES[c] === 'note');
    if (noteCodes.length > 0) {
      out.push('#### Note findings', '');
      out.push(
        ...table(
          ['code', 'count', 'scopes', 'first at', 'what to do'],
          noteCodes.map((c) => {
            const listed = report.findings.filter((f) => f.code === c);
            const scopes = [...new Set(listed.map((f) => f.scope ?? '—'))];
            const shown = scopes.slice(0, 3).map((x) => mdText(x, 40)).join(', ') + (scopes.length > 3 ? ` …+${scopes.length - 3}` : '');
            return [`\`${c}\``, findingCountText(report, c), shown, mdLoc(listed[0]?.locations[0]), CODE_DESCRIPTIONS[c].action];
          }),
        ),
        '',
      );
    }
  }

  if (report.notes.length) {
    out.push('### Notes', '');
    for (const n of report.notes.slice(0, MAX_NOTES)) out.push(`- ${mdText(n, NOTE_MAX)}`);
    if (report.notes.length > MAX_NOTES) out.push(`- …and ${report.notes.length - MAX_NOTES} more`);
    out.push('');
  }
  return fitBudget(out.join('\n').replace(/\n+$/, '') + '\n');
}

const MAX_BASELINE_ROWS = 20;

/** `--baseline`: counts, the deltas a reader watches, and the new and fixed findings. */
export function baselineMarkdown(b: ReportBaseline, headFindings: readonly Finding[]): string[] {
  const out: string[] = ['### Since baseline', ''];
  out.push(`${b.counts.new} new, ${b.counts.fixed} fixed, ${b.counts.unchanged} unchanged finding(s)${b.complete ? '' : ' (listed findings only: a report left some out)'}${b.failOnNew ? '; the gate counts new findings only' : ''}.`, '');
  const v = (x: number | null, rate: boolean) => (x === null ? UNKNOWN : rate ? pct(x) : String(x));
  const d = (x: number | null, rate: boolean) => (x === null ? UNKNOWN : x === 0 ? '±0' : `${x > 0 ? '+' : '−'}${rate ? `${(Math.abs(x) * 100).toFixed(1)} pp` : Math.abs(x)}`);
  const rows: Array<[string, keyof ReportBaseline['deltas'], boolean]> = [
    ['crossed rate (FIFO)', 'crossedRate', true],
    ['orphan requests', 'orphanRequests', false],
    ['orphan responses', 'orphanResponses', false],
    ['ambiguous pairs', 'ambiguous', false],
    ['id coverage', 'idCoverage', true],
  ];
  out.push(...table(['measure', 'base', 'head', 'delta'], rows.map(([name, k, rate]) => [name, v(b.deltas[k].base, rate), v(b.deltas[k].head, rate), d(b.deltas[k].delta, rate)])), '');
  const news = headFindings.filter((_, i) => b.states[i] === 'new');
  if (news.length > 0) out.push('#### New findings', '', ...table(['severity', 'code', 'channel', 'where', 'what'], news.slice(0, MAX_BASELINE_ROWS).map(findingRow), news.length), '');
  if (b.fixed.length > 0) out.push('#### Fixed findings', '', ...table(['severity', 'code', 'channel', 'where (base)', 'what'], b.fixed.slice(0, MAX_BASELINE_ROWS).map(findingRow), b.fixed.length), '');
  return out;
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
