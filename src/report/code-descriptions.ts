/**
 * One line per finding code: what it means and why it matters, and what to do about it (`action`). Used where a format describes its
 * rules (SARIF `tool.driver.rules`, Markdown legends). Static text only: no capture data.
 */
import type { FindingCode } from './findings.js';

export const CODE_DESCRIPTIONS: Record<FindingCode, { title: string; description: string; action: string }> = {
  INPUT_ERROR: { title: 'Input error', description: 'A read failed part-way (corrupt gzip, vanished file); what was read before the failure is kept.', action: 'Re-run on a complete copy of the input; the counts cover only what was read.' },
  UNSUPPORTED_SCHEMA: { title: 'Unsupported schema', description: 'A decision record of an assay.enforcement_decision schema version callpair does not know.', action: 'Upgrade callpair, or have the proxy write a schema version it knows (v0).' },
  DUPLICATE_KEY: { title: 'Duplicate key', description: 'An Assay line (decision record, caller or upstream JSON-RPC message) holds a key the audit reads (kind, method, id, tool name) twice: read as the last one, but a parser keeping the first sees another call.', action: 'Treat as a possible bypass: find who wrote the line; a well-formed writer never repeats a key.' },
  INCONSISTENT_RECORD: { title: 'Inconsistent record', description: 'A decision record that contradicts itself or its closed vocabularies.', action: 'Fix the writer of the decision records; the record is not trusted.' },
  DENIED_BUT_DELIVERED: { title: 'Denied but delivered', description: 'A call the policy denied reached the upstream: an enforcement bypass.', action: 'Treat as an enforcement bypass: find how the call got past the policy.' },
  SPLIT_SCOPE: { title: 'Split scope', description: 'callpair merge: one scope is in more than one shard report, so calls that crossed the shard boundary could not be paired; shard inputs by scope.', action: 'Re-shard the inputs by scope (session), so each scope is read by one shard.' },
  UNRECORDED_DELIVERY: { title: 'Unrecorded delivery', description: 'An upstream arrival that no allow decision covers.', action: 'Find the path that reaches the tool server without a policy decision.' },
  NO_CALL_EVENTS: { title: 'No call events', description: 'The run found nothing to audit: no input, or no record matched the profile. An error unless --allow-empty.', action: 'Check the inputs and --profile (a custom profile file for other logs), or pass --allow-empty.' },
  UNMATCHED_INPUT: { title: 'Unmatched input', description: 'An input file none of whose records a profile used (treated as a non-capture), or a caller/upstream log with no JSON-RPC message.', action: 'Drop the file from the inputs, or describe it with a custom profile.' },
  SIGNATURE_CONFLICT: { title: 'Signature conflict', description: 'An id joined a terminal to a request whose required signature differs (another tool under one id); never paired.', action: 'Treat as a possible bypass: find why one id carries two different tools.' },
  ORPHAN_REQUEST: { title: 'Orphan request', description: 'A request never closed by a terminal event before the end of its input.', action: 'Check the call at that line: it timed out, crashed, or its response was not logged.' },
  ORPHAN_RESPONSE: { title: 'Orphan response', description: 'A terminal event that no open request could take.', action: 'Check the logging of the request side: a response with no request.' },
  AMBIGUOUS_PAIR: { title: 'Ambiguous pair', description: 'A fallback pairing (signature or FIFO) that chose among two or more candidates.', action: 'Log a correlation id on both sides of the call, so it pairs exactly.' },
  DUPLICATE_ID: { title: 'Duplicate id', description: 'A valid correlation id opened twice in one scope.', action: 'Make the id unique per call (a retry reusing the id?).' },
  INVALID_ID: { title: 'Invalid id', description: 'A correlation id that fails the safe-shape rule; the event is treated as having no id and the value is never printed.', action: 'Log ids of 1-128 characters of A-Z a-z 0-9 _ - (the value is not shown).' },
  OUT_OF_RANGE: { title: 'Number out of range', description: 'A time, duration or token count outside its range (or not finite); treated as unknown so it never reaches arithmetic.', action: 'Fix the writer of that field; the value was ignored.' },
  MALFORMED_LINE: { title: 'Malformed line', description: 'An input line that is not valid JSON or was cut short.', action: 'Look for a writer cut short or two writers interleaving lines.' },
  OVERSIZED_LINE: { title: 'Oversized line', description: 'An input line longer than --max-line-bytes, skipped without buffering it whole.', action: 'Raise --max-line-bytes if the line is legitimate.' },
  CROSSED_PAIR: { title: 'Crossed pair', description: 'FIFO (or signature-FIFO) pairing would give this terminal to a different request than its correlation id does.', action: 'Nothing while ids are logged; never attribute these calls by position (FIFO).' },
  SCOPES_FOLDED: { title: 'Scopes folded', description: 'More scopes than a channel holds state for: the longest idle were folded into its totals, so memory stays bounded.', action: 'Raise --max-scopes to hold more scopes, or split the capture by scope to see each one.' },
  DUPLICATE_TERMINAL: { title: 'Duplicate terminal', description: 'A second terminal event for a call that was already closed.', action: 'Usually a retry or a re-reported error; check the writer if it is frequent.' },
};
