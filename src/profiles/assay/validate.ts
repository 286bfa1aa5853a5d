/**
 * Validation of `assay.enforcement_decision.*` records, Plimsoll-style (docs/design.md §3.2;
 * the record contract is fixtures/assay/contract.v0.ndjson): closed vocabularies, the `fail_closed` invariant,
 * and the drift_state that each reason implies. Unknown additive fields are accepted.
 *
 * Outcomes:
 * - `unsupported_schema`: an `assay.enforcement_decision.*` schema other than `v0`;
 * - `malformed`: a field the record cannot do without has the wrong JSON type
 *   (`decision`, `reason`, `drift_state` not strings, `fail_closed` not a boolean, `tool.name`
 *   not a string, `tool`/`action`/`caller` not objects);
 * - `inconsistent`: the record contradicts itself or its vocabulary;
 * - `valid`.
 * Problems are fixed, capture-free sentences (a value outside a vocabulary is never echoed).
 */
import { asObject } from '../types.js';

export const DECISION_SCHEMA_V0 = 'assay.enforcement_decision.v0';
export const DECISION_SCHEMA_PREFIX = 'assay.enforcement_decision.';

export const DECISIONS = ['allow', 'deny'] as const;

/** The 10 reasons of descriptor.json, in its order. */
export const REASONS = [
  'unclassified_tool_call',
  'classification_incomplete',
  'no_declared_allowance',
  'credential_scope_unknown',
  'credential_scope_insufficient',
  'manifest_baseline_missing',
  'manifest_observation_ambiguous',
  'manifest_current_observation_incomplete',
  'manifest_drifted_since_approval',
  'allow',
] as const;

/** The 6 drift states of descriptor.json. */
export const DRIFT_STATES = [
  'satisfied',
  'baseline_missing',
  'current_observation_incomplete',
  'observation_ambiguous',
  'drifted',
  'not_evaluated',
] as const;

const REASON_SET: ReadonlySet<string> = new Set(REASONS);
const DRIFT_SET: ReadonlySet<string> = new Set(DRIFT_STATES);

/** The drift_state each reason implies (producer `decision.rs::drift_state`). */
export function expectedDriftState(reason: string): string {
  switch (reason) {
    case 'allow':
      return 'satisfied';
    case 'manifest_baseline_missing':
      return 'baseline_missing';
    case 'manifest_current_observation_incomplete':
      return 'current_observation_incomplete';
    case 'manifest_observation_ambiguous':
      return 'observation_ambiguous';
    case 'manifest_drifted_since_approval':
      return 'drifted';
    default:
      return 'not_evaluated';
  }
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

export type ValidationStatus = 'valid' | 'malformed' | 'unsupported_schema' | 'inconsistent';

export interface Validation {
  status: ValidationStatus;
  problems: string[];
}

/** Is this schema string one of the decision record family (any version)? */
export function isDecisionSchema(schema: string): boolean {
  return schema.startsWith(DECISION_SCHEMA_PREFIX);
}

export function validateDecisionRecord(rec: Record<string, unknown>): Validation {
  if (rec.schema !== DECISION_SCHEMA_V0) return { status: 'unsupported_schema', problems: [] };
  const malformed: string[] = [];
  const tool = asObject(rec.tool);
  if (!tool) malformed.push('tool is not an object');
  else if (typeof tool.name !== 'string') malformed.push('tool.name is not a string');
  if (rec.caller !== undefined && rec.caller !== null && !asObject(rec.caller)) malformed.push('caller is not an object');
  if (rec.action !== undefined && rec.action !== null && !asObject(rec.action)) malformed.push('action is not an object');
  if (typeof rec.decision !== 'string') malformed.push('decision is not a string');
  if (typeof rec.reason !== 'string') malformed.push('reason is not a string');
  if (typeof rec.drift_state !== 'string') malformed.push('drift_state is not a string');
  if (typeof rec.fail_closed !== 'boolean') malformed.push('fail_closed is not a boolean');
  if (malformed.length > 0) return { status: 'malformed', problems: malformed };

  const decision = rec.decision as string;
  const reason = rec.reason as string;
  const drift = rec.drift_state as string;
  const problems: string[] = [];
  const decisionKnown = decision === 'allow' || decision === 'deny';
  if (!decisionKnown) problems.push('decision is not allow or deny');
  const reasonKnown = REASON_SET.has(reason);
  if (!reasonKnown) problems.push('reason is outside the closed reason vocabulary');
  const driftKnown = DRIFT_SET.has(drift);
  if (!driftKnown) problems.push('drift_state is outside the closed drift_state vocabulary');
  if (decisionKnown && rec.fail_closed !== (decision === 'deny')) problems.push(`fail_closed is ${String(rec.fail_closed)} on a ${decision} record (fail_closed must equal decision = deny)`);
  if (decisionKnown && reasonKnown && (decision === 'allow') !== (reason === 'allow'))
    problems.push(decision === 'allow' ? `an allow record has the deny reason ${reason}` : 'a deny record has the reason allow');
  if (reasonKnown && driftKnown && expectedDriftState(reason) !== drift)
    problems.push(`drift_state ${drift} does not fit the reason ${reason} (expected ${expectedDriftState(reason)})`);
  const action = asObject(rec.action);
  const digest = action?.target_digest;
  if (digest !== undefined && digest !== null && (typeof digest !== 'string' || !DIGEST.test(digest)))
    problems.push('action.target_digest is not sha256:<64 hex>');
  return problems.length > 0 ? { status: 'inconsistent', problems } : { status: 'valid', problems: [] };
}
