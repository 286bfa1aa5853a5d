/**
 * NDJSON: one finding per line (`"type":"finding"`), then one line per gate check
 * (`"type":"check"`), then one summary line (`"type":"summary"`: counts, omitted, per-channel
 * totals with the failed count, gate result),
 * so `jq 'select(.type=="finding")'` or DuckDB read it as a table. Escaped like the JSON report
 * (no raw controls, C1 or bidi characters).
 */
import type { Report } from '../report/report.js';
import type { Formatter } from './types.js';
import { safeJson } from './json.js';
import { channelTotals } from './totals.js';

export function renderNdjson(report: Report): string {
  const lines: string[] = [];
  for (const f of report.findings) {
    lines.push(safeJson({ type: 'finding', code: f.code, severity: f.severity, channel: f.channel, scope: f.scope, message: f.message, locations: f.locations, data: f.data }));
  }
  for (const c of report.gate.checks) lines.push(safeJson({ type: 'check', ...c }));
  lines.push(
    safeJson({
      type: 'summary',
      schema: report.schema,
      tool: report.tool,
      findingCounts: report.findingCounts,
      findingsOmitted: report.findingsOmitted,
      channels: channelTotals(report),
      gate: { passed: report.gate.passed, enforced: report.gate.enforced },
    }),
  );
  return lines.join('\n') + '\n';
}

export const ndjson: Formatter = {
  name: 'ndjson',
  description: 'one finding per line, then the gate checks and a summary line',
  extension: 'ndjson',
  render: (report) => renderNdjson(report),
};
