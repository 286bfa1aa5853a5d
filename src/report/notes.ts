/**
 * Notes: what the report cannot tell from this input. Profiles hand out typed codes; the report
 * writes each code's text (stable, capture-free sentences) into `notes`.
 */

export const NOTE_TEXT = {
  'assay-nothing-paired': 'assay: decision records only, nothing paired (give --caller FILE and --upstream FILE to audit decisions and delivery)',
  'assay-bypass-needs-ids':
    'assay: bypass detection needs ids or the caller log: decision records without a correlation id pair with upstream arrivals by tool name in order, and a denied call that reached the upstream shows only as UNRECORDED_DELIVERY',
  'assay-several-runs':
    'assay: the files look like several runs (repeated initialize handshakes or reused caller JSON-RPC ids, counted in records.assay.runs): pairs across runs are guesses; give one run’s files',
  'assay-method-spelling':
    'assay: some JSON-RPC lines are tools/call-shaped under another method spelling (e.g. TOOLS/CALL, "tools/call "): methods are exact, so they were ignored, not read as calls (records.assay.methodSpellings: how many, and the first one’s location)',
  'assay-delivery-not-audited': 'assay: delivery not audited (give --upstream FILE, the upstream’s received tools/call log)',
  'amplifier-numeric-times':
    'amplifier: some times were JSON numbers, not ISO 8601 text (records.amplifier.numericTimes): read as epoch seconds, microseconds or nanoseconds where their magnitude says so (1e9–1e10, 1e15–1e16, 1e18–1e19), else as milliseconds',
  'amplifier-naive-times': 'amplifier: times without a zone (naive ISO 8601) were read as UTC (records.amplifier.naiveTimes)',
  'amplifier-unreadable-times': 'amplifier: some events’ times could not be read (records.amplifier.unreadableTimes: a date the calendar lacks, text that is no time): their calls have no latency',
  'amplifier-unknown-previous':
    'amplifier: some provider:error events without request_id came in sessions with no last event remembered, after the window of last events (50 000–100 000 sessions) had forgotten some (records.amplifier.unknownPrevious): each was read as a new outcome, though one in a forgotten session may re-report an error llm:response (redundant)',
  'jsonrpc-notifications': 'jsonrpc: notifications are counted (records.jsonrpc.notifications), never calls',
  'jsonrpc-naive-times': 'jsonrpc: times without a zone (naive ISO 8601) were read as UTC',
  'jsonrpc-unknown-direction': 'jsonrpc: some records stated a direction callpair does not know; their ids were not namespaced by direction',
  'openai-batch-hold-full':
    'openai: more output lines came before their input line than the 1 000 000 held (records.openai-batch.heldOverflow): those were read as they came: one whose input line came later is an orphan response, and its request an orphan request, though they may pair; give the input file first (its requests wait for their output, up to ten times --max-open-calls)',
  'openai-batch-ids-forgotten':
    'openai: requests were read after the custom_ids of calls closed more than 100 000 calls before were forgotten (channels[].unsureRepeats): one may repeat a forgotten custom_id unreported (DUPLICATE_ID; --fail-on DUPLICATE_ID cannot be evaluated), and an output line repeated that far apart is an orphan response or a duplicate terminal as the engine remembers its id',
  'openai-batch-order': 'openai: Batch output order is arbitrary by contract: openai-batch pairs by custom_id only, and FIFO is not compared (no crossed pairs)',
  'transcript-naive-times': 'transcript: timestamps without a zone (naive ISO 8601) were read as UTC (records.transcript.naiveTimes)',
  'transcript-beyond-window':
    'transcript: some request-log lines repeat no tool-call id still remembered, read after the window of ids had forgotten some (records.transcript.beyondWindow, first at beyondWindowAt): they may continue a forgotten conversation, their history’s tool calls then counted again',
  'transcript-new-past-window':
    'transcript: some tool calls or results of session lines were read after the window of tool-call ids (50 000–100 000) had forgotten some (records.transcript.newPastWindow, first at newPastWindowAt): each was read as new, though it may repeat one read before the ids remembered (then counted twice)',
  'transcript-conflicting-repeats':
    'transcript: some tool-call ids were read again with another tool name or arguments, or a result again with another is_error (records.transcript.conflictingRepeats, first at conflictingRepeatsAt): each was read as a call or result of its own, not as a repeat',
  'transcript-same-line-results':
    'transcript: some tool calls and their results were first read on one line (a request log whose one line holds both; records.transcript.sameLineResults): that line’s time times neither, so those pairs have no latency',
  'transcript-unreadable-times': 'transcript: some timestamps could not be read (records.transcript.unreadableTimes): their calls have no latency',
  'custom-naive-times': 'custom: times without a zone (naive ISO 8601) were read as UTC',
  'custom-unreadable-times': 'custom: some time fields could not be read with the profile’s time format (records.<profile>.unreadableTimes); an epoch number needs "unit"',
} as const satisfies Record<string, string>;

export type NoteCode = keyof typeof NOTE_TEXT;

export function noteText(code: NoteCode): string {
  return NOTE_TEXT[code];
}

/** How a channel's eviction note goes on after its count (`callpair merge` recomputes the note from the merged count). */
const EVICTED_TAIL = ' open request(s) were evicted at --max-open-calls ';

/**
 * A channel evicted open requests at --max-open-calls: its orphans come (in part) from the bound,
 * not the capture, and what was paired after may differ from an unbounded reading.
 */
export function evictedNote(channel: string, evicted: number, bound: number): string {
  return `${channel}: ${evicted}${EVICTED_TAIL}${bound}: orphans of the bound, not of the capture (ORPHAN_REQUEST reason evicted; a terminal read later for one is an orphan response, id-evicted while its id is remembered), and the pairs after it, with their crossed counts, confidence, duplicates, latencies and failed count, may differ from an unbounded reading (--max-crossed-rate, --max-ambiguous and --fail-on of the findings it can hide cannot be evaluated); raise --max-open-calls`;
}

export function isEvictedNote(note: string): boolean {
  return note.includes(EVICTED_TAIL);
}

/**
 * Orphan responses `id-not-open` read after the engine's closed-id or evicted-id window had
 * forgotten an id: a larger window might have read each as a repeat of a closed call
 * (DUPLICATE_TERMINAL) or as answering an evicted request (`id-evicted`). No count (it is
 * `channels[].unsureOrphans`): the sentence is the same in every shard, so a merged report says it once.
 */
export function unsureOrphansNote(channel: string, closed: number, evicted: number): string {
  return `${channel}: some orphan responses with reason id-not-open were read after the engine had forgotten closed or evicted ids (it remembers the last ${closed} closed and ${evicted} evicted): each may repeat a call closed earlier or answer a request evicted at --max-open-calls`;
}

/** How a channel's zero-latency note starts (`callpair merge` recomputes it from the merged count). */
const ZERO_LATENCY_TAIL = ' pair(s) have equal request and terminal times: latency 0 at the capture’s time resolution (channels[].zeroLatencies)';

/** A channel whose pairs have latency 0 because request and terminal carry the same time. */
export function zeroLatencyNote(channel: string, pairs: number): string {
  return `${channel}: ${pairs}${ZERO_LATENCY_TAIL}`;
}

export function isZeroLatencyNote(note: string): boolean {
  return note.endsWith(ZERO_LATENCY_TAIL);
}
