/**
 * One line per finding code: what it means and why it matters. Used where a format describes its
 * rules (SARIF `tool.driver.rules`, Markdown legends). Static text only: no capture data.
 */
import type { FindingCode } from './findings.js';

export const CODE_DESCRIPTIONS: Record<FindingCode, { title: string; description: string }> = {
  INPUT_ERROR: { title: 'Input error', description: 'A read failed part-way (corrupt gzip, vanished file); what was read before the failure is kept.' },
  UNSUPPORTED_SCHEMA: { title: 'Unsupported schema', description: 'A decision record of an assay.enforcement_decision schema version callpair does not know.' },
  INCONSISTENT_RECORD: { title: 'Inconsistent record', description: 'A decision record that contradicts itself or its closed vocabularies.' },
  DENIED_BUT_DELIVERED: { title: 'Denied but delivered', description: 'A call the policy denied reached the upstream: an enforcement bypass.' },
  UNRECORDED_DELIVERY: { title: 'Unrecorded delivery', description: 'An upstream arrival that no allow decision covers.' },
  NO_CALL_EVENTS: { title: 'No call events', description: 'The run found nothing to audit: no input, or no record matched the profile. An error unless --allow-empty.' },
  UNMATCHED_INPUT: { title: 'Unmatched input', description: 'An input file none of whose records a profile used (treated as a non-capture), or a caller/upstream log with no JSON-RPC message.' },
  ORPHAN_REQUEST: { title: 'Orphan request', description: 'A request never closed by a terminal event before the end of its input.' },
  ORPHAN_RESPONSE: { title: 'Orphan response', description: 'A terminal event that no open request could take.' },
  AMBIGUOUS_PAIR: { title: 'Ambiguous pair', description: 'A fallback pairing (signature or FIFO) that chose among two or more candidates.' },
  DUPLICATE_ID: { title: 'Duplicate id', description: 'A valid correlation id opened twice in one scope.' },
  INVALID_ID: { title: 'Invalid id', description: 'A correlation id that fails the safe-shape rule; the event is treated as having no id and the value is never printed.' },
  MALFORMED_LINE: { title: 'Malformed line', description: 'An input line that is not valid JSON or was cut short.' },
  OVERSIZED_LINE: { title: 'Oversized line', description: 'An input line longer than --max-line-bytes, skipped without buffering it whole.' },
  CROSSED_PAIR: { title: 'Crossed pair', description: 'FIFO (or signature-FIFO) pairing would give this terminal to a different request than its correlation id does.' },
  DUPLICATE_TERMINAL: { title: 'Duplicate terminal', description: 'A second terminal event for a call that was already closed.' },
};
