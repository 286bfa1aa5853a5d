/**
 * The one place where a finding becomes a sentence: from `code` + `data` only. The text may hold
 * capture strings (callers, tool names); every formatter that renders it sanitises it for its
 * medium. Invalid ids never reach here (their data holds only reason, length and hash).
 */
import type { Finding, FindingDataMap } from './findings.js';
import { UNSTATED_CALLER } from '../model.js';
import { safeText } from '../formatters/safe.js';
import { beforeEndText } from '../formatters/duration.js';


/** ` for CALLER`, or what an unstated caller means: the terminal's record has no caller field (docs/inputs.md). */
function forCaller(caller: string): string {
  if (caller === '') return '';
  return caller === UNSTATED_CALLER ? ' (its record states no caller)' : ` for ${caller}`;
}

/** `caller X`, or `an empty caller` for a caller stated as `""` (no double space, no empty name). */
function callerNamed(caller: string): string {
  return caller === '' ? 'an empty caller' : `caller ${caller}`;
}

/** `from X`, or `with an empty caller`. */
function fromCaller(caller: string): string {
  return caller === '' ? 'with an empty caller' : `from ${caller}`;
}

/**
 * `CALLER request` / `CALLER terminal`; for a caller stated as `""`, `request with an empty
 * caller`: the side word alone would read as a call with no caller stated, and would leave a double space.
 */
function sideOf(caller: string, side: 'request' | 'terminal'): string {
  return caller === '' ? `${side} with an empty caller` : `${caller} ${side}`;
}

export function findingMessage(f: Finding): string {
  switch (f.code) {
    case 'ORPHAN_REQUEST':
      if (f.data.note) return `${f.data.note} (${f.data.tool ? `tool ${f.data.tool}, ` : ''}${callerNamed(f.data.caller)})`;
      return f.data.reason === 'evicted'
        ? `request ${fromCaller(f.data.caller)} evicted while open (--max-open-calls reached)`
        : `request ${fromCaller(f.data.caller)} never closed (${beforeEndText(f.data.ageMs)})`;
    case 'ORPHAN_RESPONSE':
      if (f.data.note) return `${f.data.kind ?? 'terminal'}${forCaller(f.data.caller)}: ${f.data.note}`;
      switch (f.data.reason) {
        case 'id-not-open':
          return `${f.data.kind ?? 'terminal'}${forCaller(f.data.caller)} carries an id no open request has`;
        case 'id-evicted':
          return `${f.data.kind ?? 'terminal'}${forCaller(f.data.caller)} answers a request evicted while open (--max-open-calls reached)`;
        case 'id-already-closed':
          return `${f.data.kind ?? 'terminal'}${forCaller(f.data.caller)} reuses the id of an already closed call`;
        case 'signature-conflict':
          return `${f.data.kind ?? 'terminal'}${forCaller(f.data.caller)} carries an open id whose call names other content`;
        default:
          return `${f.data.kind ?? 'terminal'}${forCaller(f.data.caller)} arrived with no open request to take it`;
      }
    case 'AMBIGUOUS_PAIR':
      return `paired by ${f.data.method} among ${f.data.candidates} candidates (${callerNamed(f.data.caller)})`;
    case 'CROSSED_PAIR': {
      const shadow = f.data.shadow === 'fifo' ? 'FIFO' : 'signature-FIFO';
      if (f.data.shadowCaller === null) return `${shadow} would leave the ${sideOf(f.data.terminalCaller, 'terminal')} unpaired`;
      // One caller on every side (an agent's own parallel tool calls): callers tell nothing, the id does.
      if (f.data.shadowCaller === f.data.terminalCaller && f.data.trueCaller === f.data.terminalCaller)
        return `${shadow} would give the terminal of ${f.data.id !== null ? `id ${f.data.id}` : 'this call'} to another open request, not to its own (${f.data.trueCaller === '' ? 'both with an empty caller' : `both caller ${f.data.trueCaller}`})`;
      return `${shadow} would give the ${sideOf(f.data.terminalCaller, 'terminal')} to the ${sideOf(f.data.shadowCaller, 'request')} (true partner: ${f.data.trueCaller === '' ? 'a request with an empty caller' : f.data.trueCaller})`;
    }
    case 'DUPLICATE_ID':
      return `id opened again in one scope (${callerNamed(f.data.caller)}); a terminal with it goes to the oldest request still open with it`;
    case 'DUPLICATE_TERMINAL':
      return `second terminal for an already closed call (${callerNamed(f.data.caller)})`;
    case 'INVALID_ID':
      if (f.data.reason === 'not-a-string-or-number')
        return `${f.data.field} is neither a string nor a number (length ${f.data.length}, sha256 ${f.data.sha256}); treated as no id`;
      if (f.data.reason === 'empty') return `${f.data.field} is an empty string: a JSON-RPC id member must be an id; treated as no id`;
      if (f.data.reason === 'not-a-safe-integer')
        return `${f.data.field} is a number that is not a safe integer (beyond 2^53 − 1, a fraction or -0: JSON cannot tell such ids apart; length ${f.data.length}, sha256 ${f.data.sha256}); treated as no id`;
      return `${f.data.field} fails the safe-shape rule (${f.data.reason}, length ${f.data.length}, sha256 ${f.data.sha256}); treated as no id`;
    case 'SCOPES_FOLDED':
      return `${f.data.folded} idle scope(s) folded into the channel totals past the ${f.data.limit}-scope limit (${f.data.held} held); per-scope rows cover the held ones, each since it was last folded (a folded scope read again counts again in scopeCount)`;
    case 'OUT_OF_RANGE':
      return f.data.value === null
        ? `${f.data.field} is too large to represent; treated as unknown`
        : `${f.data.field} ${f.data.value} is outside ${f.data.min}..${f.data.max}; treated as unknown`;
    case 'CLOCK_SKEW':
      return `terminal stamped ${f.data.skewMs} ms before its request (request ${new Date(f.data.requestTime).toISOString()}, terminal ${new Date(f.data.terminalTime).toISOString()}): clocks disagree; latency left out of the percentiles, times not corrected`;
    case 'IDS_NEVER_MATCH':
      return f.data.reason === 'never-match'
        ? `profile field ${f.data.field}: ${f.data.requestsWithId} request(s) and ${f.data.terminalsWithId} terminal(s) carry ids, and none paired by id (a number on one side, a string on the other? another key? terminals written before their requests?)`
        : `profile field ${f.data.field}: ${f.data.side === 'both' ? 'neither requests nor terminals carry' : `the ${f.data.side} never carry`} an id (a wrong path? or ids that are no valid correlation id, INVALID_ID: numbers need "idKind": "protocol"); nothing paired by id`;
    case 'UNREADABLE_TIME':
      return `profile field ${f.data.field}: a time present in this record is in none of the formats the field accepts; no time there`;
    case 'MALFORMED_LINE':
      if (f.data.reason === 'unusable') return `record could not be used (${f.data.bytes} bytes), counted as ignored`;
      if (f.data.reason === 'duplicate-key')
        return `a key the profile reads appears twice (${f.data.bytes} bytes): read as the last one`;
      return f.data.reason === 'truncated' ? `truncated line (${f.data.bytes} bytes): a write cut short` : `not valid JSON (${f.data.bytes} bytes)`;
    case 'OVERSIZED_LINE':
      return `line of ${f.data.bytes} bytes over the ${f.data.limit}-byte limit, skipped`;
    case 'INPUT_ERROR':
      return `read failed${f.data.byteOffset === null ? '' : ` at byte ${f.data.byteOffset}`}: ${f.data.error}; what was read is kept`;
    case 'DUPLICATE_KEY':
      if (f.data.document === 'split')
        return `key ${f.data.key} appears twice in one object of a document read element by element: JSON.parse reads the last one, so the records of this document could not be read exactly`;
      return `key ${f.data.key} appears twice in one object: read as the last one, as JSON.parse reads it; a parser keeping the first reads another message`;
    case 'DOCUMENT_UNVERIFIED':
      if (f.data.reason === 'separator')
        return `document's top-level array is not valid JSON between its elements (a missing comma, or a comma after \`[\`, after a comma or before \`]\`): JSON.parse would read no record from it; the ${f.data.records} record(s) read from the array are not verified`;
      if (f.data.reason === 'trailing')
        return `document's top-level array is followed by more than blanks (another array, a record, other bytes): JSON.parse would read no record from the file; the ${f.data.records} record(s) read from it are not verified`;
      if (f.data.reason === 'element-over-limit')
        return `document read element by element holds an element over ${f.data.limit} bytes, skipped unread, so whether the document is valid JSON is not known; the ${f.data.records} record(s) read from it are not verified`;
      return f.data.reason === 'skeleton-over-limit'
        ? `document read element by element: its bytes outside the elements pass ${f.data.limit} bytes, so whether it is valid JSON is not known; the ${f.data.records} record(s) read from it are not verified`
        : `document holding a split array is not valid JSON${f.data.reason === 'truncated' ? ' (cut short)' : ''}: JSON.parse would read no record from it; the ${f.data.records} record(s) read are not verified`;
    case 'UNSUPPORTED_SCHEMA':
      return `unsupported schema ${f.data.schema}`;
    case 'INCONSISTENT_RECORD':
      return f.data.kind === 'malformed'
        ? `malformed decision record: ${f.data.problems.join('; ')}`
        : `decision record contradicts itself: ${f.data.problems.join('; ')}`;
    case 'DENIED_BUT_DELIVERED':
      if (f.data.ambiguous)
        return `an arrival${f.data.tool ? ` of ${f.data.tool}` : ''} may be a denied call${f.data.reason ? ` (denied: ${f.data.reason})` : ''}: no id tells it from the allowed call it was paired with${runsText(f.data)}`;
      return `denied call${f.data.tool ? ` to ${f.data.tool}` : ''} reached the upstream${f.data.reason ? ` (denied: ${f.data.reason})` : ''}${runsText(f.data)}`;
    case 'SIGNATURE_CONFLICT':
      return `id joins different content (${f.data.field ?? 'signature'}: request ${f.data.request ?? '?'}, terminal ${f.data.terminal ?? '?'}; ${callerNamed(f.data.caller)}), not paired`;
    case 'SPLIT_SCOPE':
      return `scope ${JSON.stringify(safeText(f.scope ?? '', 120))} is in ${f.data.reports} shard reports: calls that cross a shard boundary could not be paired (shard by scope)`;
    case 'NO_CALL_EVENTS':
      return f.data.reason === 'no-inputs'
        ? 'no call events: no input file was found (use --allow-empty if that is expected)'
        : `no call events: none of the ${f.data.records} records in ${f.data.inputs} input(s) matched profile ${f.data.profile} (another log shape needs a profile: --profile FILE.json, docs/profiles.md; --allow-empty if none is expected)`;
    case 'UNMATCHED_INPUT':
      if (f.data.reason === 'no-json-rpc') return `--${f.data.role} ${f.data.path} holds no JSON-RPC message: it says nothing about what the ${f.data.role === 'caller' ? 'caller sent' : 'upstream received'}`;
      return f.data.records === 0
        ? `${f.data.path}: no records (${f.data.lines} lines), treated as a non-capture`
        : `${f.data.path}: none of its ${f.data.records} records matched a profile, treated as a non-capture`;
    case 'DELIVERY_UNVERIFIED':
      return `delivery unverified: ${unverifiedText(f.data)}`;
    case 'UNRECORDED_DELIVERY':
      return `upstream arrival${f.data.tool ? ` of ${f.data.tool}` : ''} that no allow decision covers`;
  }
}

/** Why the delivery audit is unverified, in words (DELIVERY_UNVERIFIED; docs/assay.md). */
function unverifiedText(d: FindingDataMap['DELIVERY_UNVERIFIED']): string {
  const where = d.path ? ` in ${d.path}` : '';
  switch (d.cause) {
    case 'unread-line':
      if (d.reason === 'not-a-log') return `file${d.path ? ` ${d.path}` : ''} of a --caller or --upstream directory not read (not named *.jsonl, *.ndjson or *.json, optionally .gz): a denied call may be in it`;
      return `${d.count} line(s)${where} not read (${d.reason ?? 'unread'}): a denied call may be among them`;
    case 'evicted':
      return `${d.count} open call(s) of ${d.window ?? 'a channel'} evicted over --max-open-calls${d.bound !== undefined ? ` ${d.bound}` : ''}: later pairs may be shifted (raise --max-open-calls)`;
    case 'window':
      return `the ${d.window ?? 'assay'} window of ${d.bound ?? 'n/a'} entries was reached ${d.count} time(s): the audit forgot what it needs (raise --max-open-calls)`;
    case 'deny-without-id':
      return `${d.count} deny record(s) without a correlation id and no caller log to chain one from: their delivery cannot be checked`;
    case 'deny-not-in-caller-log':
      return `${d.count} deny record(s) without a correlation id that no caller call pairs with: their delivery cannot be checked`;
    case 'caller-log-empty':
      return `the caller log${where} holds no tools/call: decision records without a correlation id cannot be chained to arrivals`;
    case 'ambiguous-pairing':
      return `${d.count} decision record(s) without a correlation id were paired with a caller call only by order (across files, or among several candidates of a tool both allowed and denied): which call was denied is not known`;
    case 'method-spelling':
      return `${d.count} upstream line(s)${where} tools/call-shaped under another method spelling (e.g. TOOLS/CALL, "tools/call "): not read as arrivals, but a lenient server may have run them`;
    case 'keyless-arrival':
      return `${d.count} upstream arrival(s)${where} with no key were paired with an allow by tool name alone while a deny record of that tool saw no arrival: which call arrived is not known`;
    case 'key-case':
      return `${d.count} JSON-RPC line(s)${where} hold a key the audit reads under another letter case (e.g. "Params", "Method"): a decoder matching keys case-insensitively (Go's encoding/json) may have read another call`;
    case 'no-json-rpc':
      return `--${d.reason ?? 'upstream'} log${where} holds no JSON-RPC message: that side of the audit is missing`;
  }
}

/** The several-runs hint of a DENIED_BUT_DELIVERED. */
function runsText(d: FindingDataMap['DENIED_BUT_DELIVERED']): string {
  const r = d.runs;
  if (!r) return '';
  return `; the files look like several runs (${r.upstreamHandshakes} initialize upstream, ${r.callerHandshakes} in the caller log, ${r.callerIdsReused} reused caller ids)`;
}
