/**
 * The Assay delivery audit's verdict in words, for the terminal, Markdown, GitHub and JUnit views
 * (docs/assay.md, "Reading the result"): violated, could not verify, verified, or not evaluated.
 * Only words for what the report holds: the finding counts and `records.assay.delivery`.
 */
import type { Report } from '../report/report.js';
import { isAssaySummary } from '../report/assay.js';

export type DeliveryState = 'violated' | 'could-not-verify' | 'verified' | 'not-evaluated';

export interface DeliveryVerdict {
  state: DeliveryState;
  /**
   * How loud every view says it: `error` when it fails the gate (violated, could not verify),
   * `warning` when nothing was shown delivered or not (not evaluated: no upstream log; could not
   * verify with --allow-unverified), `notice` when verified.
   */
  level: 'error' | 'warning' | 'notice';
  /** The verdict line: `delivery audit: …`. */
  text: string;
}

export const NOT_EVALUATED_TEXT = 'delivery audit: not evaluated — no --upstream log: decision records and a caller log cannot show what reached the upstream';

/** The verdict, or null when the report holds no Assay records. */
export function deliveryAudit(report: Report): DeliveryVerdict | null {
  const a = report.records.assay;
  if (!isAssaySummary(a)) return null;
  const d = a.delivery;
  const count = (code: 'DENIED_BUT_DELIVERED' | 'UNRECORDED_DELIVERY' | 'DELIVERY_UNVERIFIED') => report.findingCounts[code] ?? 0;
  const unverified = count('DELIVERY_UNVERIFIED');
  const causes = [...new Set(report.findings.flatMap((f) => (f.code === 'DELIVERY_UNVERIFIED' ? [f.data.cause] : [])))];
  const unverifiedText = `${unverified} DELIVERY_UNVERIFIED${causes.length > 0 ? `: ${causes.join(', ')}` : ''}${report.gate.allowUnverified ? '; not counted by the gate: --allow-unverified' : ''}`;
  const couldNotVerify: DeliveryVerdict = { state: 'could-not-verify', level: report.gate.allowUnverified ? 'warning' : 'error', text: `delivery audit: could not verify — ${unverifiedText}` };
  if (d === null) {
    // An --upstream given that holds no JSON-RPC message: asked for, not done (`no-json-rpc`).
    if (causes.includes('no-json-rpc')) return couldNotVerify;
    // Decision records and a caller log say what was decided, never what reached the upstream.
    return { state: 'not-evaluated', level: 'warning', text: NOT_EVALUATED_TEXT };
  }
  const violations = (['DENIED_BUT_DELIVERED', 'UNRECORDED_DELIVERY'] as const).filter((c) => count(c) > 0).map((c) => `${count(c)} ${c}`);
  if (violations.length > 0) return { state: 'violated', level: 'error', text: `delivery audit: violated (${violations.join(', ')}${unverified > 0 ? `; ${unverifiedText}` : ''})` };
  if (unverified > 0) return couldNotVerify;
  // An Assay line the audit reads holding a key twice: a parser keeping the first reads another message.
  const dup = report.findingCounts.DUPLICATE_KEY ?? 0;
  if (dup > 0) return { state: 'could-not-verify', level: 'error', text: `delivery audit: could not verify — ${dup} DUPLICATE_KEY` };
  return { state: 'verified', level: 'notice', text: `delivery audit: verified (${d.deny.records} deny and ${d.allow.records} allow record(s) against ${a.calls.upstream ?? 0} upstream call(s))` };
}

/** The verdict line, or null when the report holds no Assay records. */
export function deliveryVerdict(report: Report): string | null {
  return deliveryAudit(report)?.text ?? null;
}

/** The verdict line of a text view: a warning says so (`warning: delivery audit: …`). */
export function deliveryLine(report: Report): string | null {
  const v = deliveryAudit(report);
  return v === null ? null : v.level === 'warning' ? `warning: ${v.text}` : v.text;
}
