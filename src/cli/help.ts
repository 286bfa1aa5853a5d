/**
 * Help text shared by the commands: exit codes and the default gate (docs/ci.md). Static: nothing
 * in --help depends on the machine it runs on.
 */
import { FINDING_CODES } from '../report/findings.js';

const EXIT_2 = '2 a usage error, an unreadable input or an unwritable output.';

/** The commands with a gate (analyze, render, merge, diff), and the top-level help. */
export const EXIT_CODES = `Exit codes: 0 done; 1 the gate failed (analyze, render, merge, diff) or nothing matched (compare, pairs); ${EXIT_2}`;

/** compare and pairs: no gate, but nothing matched never passes quietly (gate-exit.ts settleEmpty). */
export const EXIT_CODES_NO_GATE = `Exit codes: 0 done; 1 nothing matched (NO_CALL_EVENTS: no input, or no record matched the profile; --allow-empty: 0); ${EXIT_2}`;

const ERROR_CODES = Object.entries(FINDING_CODES)
  .filter(([, severity]) => severity === 'error')
  .map(([code]) => code)
  .join(', ');

export const DEFAULT_GATE = `Default gate: fail on any error-severity finding (${ERROR_CODES}); --max-*, --min-id-coverage and --fail-on add checks. The verdict is one line on stderr whatever the report's destination.`;
