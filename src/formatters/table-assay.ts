/**
 * The assay section of the table view: the validation counts and the delivery audit matrix
 * (allow/deny × arrived/not arrived), read from `report.records.assay` only. Capture strings
 * (tool names) go through safeText.
 */
import type { ChalkInstance } from 'chalk';
import type { Report } from '../report/report.js';
import { isAssaySummary } from '../report/assay.js';
import { safeText } from './safe.js';
import { num as n, plainTable as small } from './present.js';

const TOOL_LIMIT = 10;


/** The assay section, or '' when the report has no assay records. */
export function assaySection(report: Report, chalk: ChalkInstance): string {
  const a = report.records.assay;
  if (!isAssaySummary(a)) return '';
  const out: string[] = [];
  const bad = (v: number) => (v > 0 ? chalk.red(String(v)) : String(v));
  out.push(chalk.bold.underline('Assay decision records') + chalk.dim(`  ${a.records} record(s)${a.otherAssayRecords ? `, ${a.otherAssayRecords} other assay.* record(s) not read` : ''}`));
  const v = small(['valid', 'malformed', 'unsupported schema', 'inconsistent', 'allow', 'deny', 'correlation ids'], chalk);
  const c = a.correlationIds;
  v.push([
    String(a.valid),
    bad(a.malformed),
    bad(a.unsupportedSchema),
    bad(a.inconsistent),
    String(a.byDecision.allow),
    String(a.byDecision.deny) + (a.byDecision.other ? ` (+${a.byDecision.other} other)` : ''),
    `${c.present} present · ${c.absent} absent · ${c.invalid} invalid · ${c.duplicated} duplicated`,
  ]);
  out.push(v.toString());
  if (a.byTool.length > 0 || a.byReason.length > 0) {
    // Tools and reasons side by side (reasons are a closed vocabulary plus `other`).
    const t = small(['tool', 'records', 'reason', 'records'], chalk);
    const tools = a.byTool.slice(0, TOOL_LIMIT);
    const rows = Math.max(tools.length, a.byReason.length);
    for (let i = 0; i < rows; i++) {
      const tr = tools[i];
      const rr = a.byReason[i];
      t.push([tr ? safeText(tr.tool, 60) : '', tr ? String(tr.count) : '', rr ? safeText(rr.reason, 60) : '', rr ? String(rr.count) : '']);
    }
    const more = Math.max(0, a.byTool.length - TOOL_LIMIT) + a.toolsOmitted;
    out.push(t.toString() + (more > 0 ? chalk.dim(`\n…and ${more} more tool(s) (see --format json)`) : ''));
  }
  const d = a.delivery;
  if (d) {
    const m = small(['delivery audit', 'arrived upstream', 'not arrived'], chalk);
    m.push(
      ['allow', String(d.allow.arrived), d.allow.notArrived > 0 ? chalk.yellow(String(d.allow.notArrived)) : '0'],
      [
        'deny',
        d.deny.arrived !== null && d.deny.arrived > 0 ? chalk.red(`${d.deny.arrived} DENIED_BUT_DELIVERED`) : n(d.deny.arrived),
        n(d.deny.notArrived) + (d.deny.unchecked > 0 ? chalk.dim(` (${d.deny.unchecked} without an id: unchecked)`) : ''),
      ],
      ['no decision', d.unrecordedArrivals > 0 ? chalk.red(`${d.unrecordedArrivals} UNRECORDED_DELIVERY`) : '0', '—'],
    );
    out.push(m.toString());
  }
  return out.join('\n');
}
