/**
 * The gate's last word (docs/ci.md): one verdict line on stderr and the exit code, whatever the
 * report's destination — also when the reader of stdout goes away early (`| head`), which ends
 * the run at once but must not turn a failed gate into exit 0.
 */
import type { Gate } from '../report/gate.js';
import type { Report } from '../report/report.js';
import { findingMessage } from '../report/messages.js';
import { gateVerdict } from '../formatters/gate-text.js';
import { diag, EXIT_GATE, onClosedStdout } from './io.js';

/** Arms the verdict for a closed stdout; call before the report is written. */
export function armGate(gate: Gate): void {
  onClosedStdout(() => settleGate(gate));
}

/**
 * Prints the verdict and sets the exit code (once). `onScreen`: the report just written to the
 * terminal ends with the verdict and stderr is that terminal too, so it is not printed twice
 * (docs/ci.md: one verdict on a terminal); anywhere else it is always one line on stderr.
 */
export function settleGate(gate: Gate, onScreen = false): void {
  onClosedStdout(null);
  if (!onScreen) diag(gateVerdict(gate));
  if (!gate.passed && gate.enforced) process.exitCode = EXIT_GATE;
}

/**
 * `compare` and `pairs` have no gate, but nothing matched never passes quietly (docs/profiles.md):
 * the NO_CALL_EVENTS finding is one line on stderr and exit 1, as analyze's default gate gives.
 */
export function settleEmpty(report: Report): void {
  const f = report.findings.find((x) => x.code === 'NO_CALL_EVENTS');
  if (!f) return;
  diag(findingMessage(f));
  process.exitCode = EXIT_GATE;
}
