/**
 * Help text shared by the commands: exit codes and the default gate (docs/ci.md). Static: nothing
 * in --help depends on the machine it runs on.
 */
export const EXIT_CODES = 'Exit codes: 0 done; 1 the gate failed (analyze only); 2 a usage error, an unreadable input or an unwritable output.';

export const DEFAULT_GATE =
  'Default gate: fail on any error-severity finding (INPUT_ERROR, UNSUPPORTED_SCHEMA, INCONSISTENT_RECORD, DENIED_BUT_DELIVERED, UNRECORDED_DELIVERY); --max-*, --min-id-coverage and --fail-on add checks. The verdict is one line on stderr whatever the report\'s destination.';
