/** How a channel's failure rule (its declaration, model.ts `FailureRule`) reads in a report. */
import type { FailureRule } from '../model.js';
import { safeText } from './safe.js';

/** Statuses shown per rule; the rest is counted. */
const SHOWN = 6;
/** The whole text is bounded like any table cell. */
const MAX_FAILURE_TEXT = 200;

function list(xs: readonly string[]): string {
  const shown = xs.slice(0, SHOWN).map((x) => safeText(x, 40)).join(', ');
  return xs.length > SHOWN ? `${shown}, … (+${xs.length - SHOWN} more)` : shown;
}

export function failureText(r: FailureRule): string {
  return safeText(ruleText(r), MAX_FAILURE_TEXT);
}

function ruleText(r: FailureRule): string {
  switch (r.kind) {
    case 'status-in':
      return `status ${list(r.statuses)}`;
    case 'status-not-in':
      return `status not ${list(r.statuses)}`;
    case 'status-at-least':
      return `status ≥ ${r.min}`;
    case 'error-present':
      return 'an error present';
    case 'any':
      return r.rules.length === 0 ? 'never' : r.rules.map(ruleText).join(' or ');
  }
}
