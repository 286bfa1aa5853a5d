/**
 * The assay section of the table view: the validation counts and the delivery audit matrix
 * (allow/deny × arrived/not arrived), read from `report.records.assay` only. Capture strings
 * (tool names) go through safeText.
 */
import type { ChalkInstance } from 'chalk';
import type { Report } from '../report/report.js';
import { isAssaySummary } from '../report/assay.js';
import { loc, safeText } from './safe.js';
import { fittedTable, num as n } from './present.js';

const TOOL_LIMIT = 10;


/** The assay section, or '' when the report has no assay records. */
export function assaySection(report: Report, chalk: ChalkInstance, width?: number, hidden?: string[]): string {
  const a = report.records.assay;
  if (!isAssaySummary(a)) return '';
  const out: string[] = [];
  const bad = (v: number) => (v > 0 ? chalk.red(String(v)) : String(v));
  out.push(chalk.bold.underline('Assay decision records') + chalk.dim(`  ${a.records} record(s)${a.otherAssayRecords ? `, ${a.otherAssayRecords} other assay.* record(s) not read` : ''}`));
  const c = a.correlationIds;
  const v = [[
    String(a.valid),
    bad(a.malformed),
    bad(a.unsupportedSchema),
    bad(a.inconsistent),
    String(a.byDecision.allow),
    String(a.byDecision.deny) + (a.byDecision.other ? ` (+${a.byDecision.other} other)` : ''),
    `${c.present} present · ${c.absent} absent · ${c.invalid} invalid · ${c.duplicated ?? 'n/a'} duplicated`,
  ]];
  out.push(fittedTable(['valid', 'malformed', 'unsupported schema', 'inconsistent', 'allow', 'deny', 'correlation ids'], v, chalk, { width, hidden }));
  // Tools and reasons in two tables: side by side, a tool's row would read as if it had that reason.
  if (a.byTool.length > 0) {
    const tools = a.byTool.slice(0, TOOL_LIMIT).map((tr) => [safeText(tr.tool, 60), String(tr.count)]);
    const more = Math.max(0, a.byTool.length - TOOL_LIMIT) + a.toolsOmitted;
    out.push(fittedTable(['tool', 'records'], tools, chalk, { width, hidden }) + (more > 0 ? chalk.dim(`\n…and ${more} more tool(s) (see --format json)`) : ''));
  }
  if (a.byReason.length > 0) {
    out.push(fittedTable(['reason', 'records'], a.byReason.map((rr) => [safeText(rr.reason, 60), String(rr.count)]), chalk, { width, hidden }));
  }
  const d = a.delivery;
  if (d) {
    const m = [
      ['allow', String(d.allow.arrived), d.allow.notArrived > 0 ? chalk.yellow(String(d.allow.notArrived)) : '0'],
      [
        'deny',
        d.deny.arrived !== null && d.deny.arrived > 0 ? chalk.red(`${d.deny.arrived} DENIED_BUT_DELIVERED`) : n(d.deny.arrived),
        n(d.deny.notArrived) + (d.deny.unchecked > 0 ? chalk.dim(` (${d.deny.unchecked} without an id: unchecked)`) : ''),
      ],
      ['no decision', d.unrecordedArrivals > 0 ? chalk.red(`${d.unrecordedArrivals} UNRECORDED_DELIVERY`) : '0', '—'],
    ];
    out.push(fittedTable(['delivery audit', 'arrived upstream', 'not arrived'], m, chalk, { width, hidden }));
  }
  const sp = a.methodSpellings;
  if (sp) out.push(chalk.yellow(`${sp.count} tools/call-shaped line(s) under another method spelling, the first at ${loc(sp.first)}: ignored (JSON-RPC methods are exact)`));
  return out.join('\n');
}
