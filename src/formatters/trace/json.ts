/** `trace --format json`: the `callpair.trace.v1` object. */
import type { TraceFormatter } from '../types.js';
import { safeJson } from '../json.js';

export const traceJson: TraceFormatter = {
  name: 'json',
  description: 'the trace object, callpair.trace.v1',
  render: (t) => `${safeJson(t, 2)}\n`,
};
