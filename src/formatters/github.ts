/**
 * GitHub Actions workflow commands: `::error file=…,line=…,title=…::message` per finding, worst
 * first, after one `::error` per failed gate check. GitHub shows at most 10 annotations of each
 * level per step, so at most 10 are written per level, then one `::notice` says how many more
 * are in the report. An Assay run's delivery-audit verdict (delivery-verdict.ts) follows the failed
 * checks: `::error` when violated or not verified, `::warning` when not evaluated (no upstream log)
 * or not verified with --allow-unverified, `::notice` when verified. Data is escaped (`%`, CR, LF) and properties also (`:`, `,`), after every capture
 * string went through safeText (no escape sequences, controls or bidi).
 */
import type { Finding } from '../report/findings.js';
import type { Report } from '../report/report.js';
import type { FormatContext, Formatter } from './types.js';
import { safeText } from './safe.js';
import { capturePath } from './paths.js';
import { checkFailure, checkText, offenders } from './gate-text.js';
import { channelTotalsText } from './totals.js';
import { deliveryAudit } from './delivery-verdict.js';

export const ANNOTATIONS_PER_LEVEL = 10;

type Level = 'error' | 'warning' | 'notice';
const LEVEL: Record<Finding['severity'], Level> = { error: 'error', warning: 'warning', note: 'notice' };

export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}


function command(level: Level, props: Array<[string, string | number]>, message: string): string {
  const p = props.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',');
  return `::${level}${p ? ` ${p}` : ''}::${escapeData(message)}`;
}

export function renderGithub(report: Report, cwd: string): string {
  const out: string[] = [];
  const used: Record<Level, number> = { error: 0, warning: 0, notice: 0 };
  let dropped = 0;
  const droppedBy: Record<Level, number> = { error: 0, warning: 0, notice: 0 };
  const allFindings = Object.values(report.findingCounts).reduce((n, c) => n + (c ?? 0), 0);
  const unlisted = allFindings - report.findings.length;
  // When anything will be held back, keep one notice free for the "N more" line.
  const failedChecks = report.gate.checks.filter((c) => !c.passed);
  const wanted: Record<Level, number> = { error: failedChecks.length, warning: 0, notice: 0 };
  const delivery = deliveryAudit(report);
  if (delivery !== null) wanted[delivery.level]++;
  for (const f of report.findings) wanted[LEVEL[f.severity]]++;
  const overflow = unlisted > 0 || (Object.keys(wanted) as Level[]).some((l) => wanted[l] > ANNOTATIONS_PER_LEVEL);
  const cap: Record<Level, number> = { error: ANNOTATIONS_PER_LEVEL, warning: ANNOTATIONS_PER_LEVEL, notice: ANNOTATIONS_PER_LEVEL - (overflow ? 1 : 0) };

  const emit = (level: Level, props: Array<[string, string | number]>, message: string): void => {
    if (used[level] >= cap[level]) {
      dropped++;
      droppedBy[level]++;
      return;
    }
    used[level]++;
    out.push(command(level, props, message));
  };

  for (const c of failedChecks) {
    const first = offenders(report, c).find((f) => f.locations.length > 0)?.locations[0];
    const props: Array<[string, string | number]> = [];
    if (first) {
      const p = capturePath(first.path, cwd);
      if (p.absolute !== null) props.push(['file', safeText(p.relative ?? p.original, 400)], ['line', first.line]);
    }
    props.push(['title', `callpair gate: ${c.name}`]);
    emit('error', props, `gate check failed: ${checkFailure(c)}${report.gate.enforced ? '' : ' (not enforced: --no-fail)'}`);
  }
  if (delivery !== null) emit(delivery.level, [['title', 'callpair delivery audit']], delivery.text);
  for (const f of report.findings) {
    const props: Array<[string, string | number]> = [];
    const l = f.locations[0];
    if (l) {
      const p = capturePath(l.path, cwd);
      if (p.absolute !== null) props.push(['file', safeText(p.relative ?? p.original, 400)], ['line', l.line]);
    }
    props.push(['title', `callpair ${f.code}`]);
    emit(LEVEL[f.severity], props, safeText(f.message, 1000));
  }
  const more = dropped + unlisted;
  if (more > 0) {
    const parts = (['error', 'warning', 'notice'] as Level[]).filter((l) => droppedBy[l] > 0).map((l) => `${droppedBy[l]} ${l}`);
    if (unlisted > 0) parts.push(`${unlisted} counted but not listed (--max-findings)`);
    out.push(command('notice', [['title', 'callpair: more findings']], `${more} more finding(s) are in the report, not annotated here (${parts.join(', ')}). Write it with --report json=FILE or --report sarif=FILE.`));
  }
  // Plain log lines (not commands): the per-channel totals, then the gate result and its checks.
  if (report.channels.length > 0) out.push(`callpair channels: ${safeText(channelTotalsText(report), 2000)}`);
  out.push(`callpair gate ${report.gate.passed ? 'passed' : 'failed'}: ${report.gate.checks.map((c) => `${checkText(c)} ${c.passed ? 'pass' : 'FAIL'}`).join('; ')}`);
  return out.join('\n') + '\n';
}

export const github: Formatter = {
  name: 'github',
  description: 'GitHub Actions annotations (::error/::warning/::notice)',
  extension: 'txt',
  render: (report, ctx: FormatContext) => renderGithub(report, ctx.cwd),
};
