/** How a channel's failure rule (its declaration, model.ts `FailureRule`) reads in a report. */
import type { FailureRule } from '../model.js';
import { safeText } from './safe.js';

function list(xs: readonly string[]): string {
  return xs.map((x) => safeText(x, 40)).join(', ');
}

export function failureText(r: FailureRule): string {
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
      return r.rules.length === 0 ? 'never' : r.rules.map(failureText).join(' or ');
  }
}
