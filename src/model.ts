/**
 * The one data model shared by every room: input → profiles → engine → report → formatters.
 * Types only (and a few constants); no logic that knows a format.
 */

/** A physical place in the capture. `line` is 1-based. */
export interface Loc {
  path: string;
  line: number;
  /** Where a record found at a custom profile's `records` path sits in the value at that line (RFC 6901). */
  pointer?: string;
}

export type Role = 'request' | 'terminal' | 'interim';
/** How a call was paired; `record`: one record held the whole call (a custom profile's `call` role). */
export type Method = 'id' | 'signature' | 'fifo' | 'record';
export type Confidence = 'exact' | 'unambiguous' | 'ambiguous';
export const METHODS: readonly Method[] = ['id', 'signature', 'fifo', 'record'];
export const CONFIDENCES: readonly Confidence[] = ['exact', 'unambiguous', 'ambiguous'];

/** Token usage as the capture states it; `null` is unknown (never 0). */
export interface Usage {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
}

/** Content of an event that reports and exports may show. All strings come from the capture: hostile. */
export interface CallAttrs {
  provider?: string | null;
  model?: string | null;
  /** `ok`, `error`, `cancelled`, `timeout`, or a decision (`allow`/`deny`) … */
  status?: string | null;
  usage?: Usage | null;
  /** Error text or type, capture-supplied. */
  error?: string | null;
  /** Tool name (assay). */
  tool?: string | null;
  /** The event or record kind that produced this event (`llm:response`, `provider:error`, …). */
  kind?: string;
  /** Duration stated by the capture itself (ms), when present. */
  durationMs?: number | null;
}

/**
 * One pairing event, produced by a profile from one record.
 * `id` is an engine key: a valid correlation id (or a profile-typed protocol id), never an invalid one.
 */
export interface CallEvent {
  role: Role;
  channel: string;
  scope: string;
  id: string | null;
  /** Signature values aligned with the channel's `signatureFields`; `null` = unknown (wildcard). */
  sig: readonly (string | null)[] | null;
  /** Milliseconds since the Unix epoch (fractional), or null when the record has no time. */
  time: number | null;
  caller: string;
  /**
   * The record states no caller of its own (`caller` is then `UNSTATED_CALLER` on a terminal): a
   * finding labels such a terminal by its true partner's caller, never by a default.
   */
  callerUnstated?: boolean;
  attrs: CallAttrs;
  loc: Loc;
  /** A terminal the profile knows re-reports an already closed failure: counted, never pairs. */
  redundant?: boolean;
  /** Upper bound on confidence for pairs made with this event's id (an id inherited from another pairing). */
  maxConfidence?: Confidence;
  /** The displayable form of the id (for protocol ids that are not correlation ids). */
  idLabel?: string;
  /** A fixed, capture-free note the ORPHAN_REQUEST (ORPHAN_RESPONSE) finding carries if this request (terminal) is never paired. */
  orphanNote?: string;
  /** Both events come from one record that holds a whole call: their pair's method is `record`. */
  wholeRecord?: boolean;
  /** `id` is the record's own key (a whole call without an id), not a correlation id: not counted in id coverage. */
  ownKey?: boolean;
  /**
   * A request whose id a request read earlier on this channel held, where that one was read: the
   * engine reports DUPLICATE_ID against it even when its call has closed already (a profile that
   * pairs by id itself, OpenAI Batch, hands the engine each call as it pairs; docs/profiles.md).
   */
  repeatOf?: Loc;
  /** A request the profile knows nothing answers (the input has ended): an orphan request at once, never held open. */
  unanswered?: boolean;
  /**
   * Requests of this scope the profile holds waiting for their terminal, outside the engine (OpenAI
   * Batch): counted as open in `inFlight` and `maxInFlight`, as they would be were they open here.
   */
  waiting?: number;
  /**
   * A request whose id the profile could not check for a repeat: it had forgotten ids of calls
   * handed to the engine before (OpenAI Batch). Counted as `unsureRepeats`: `--fail-on DUPLICATE_ID`
   * cannot be evaluated then.
   */
  pastWindow?: boolean;
}

/**
 * When a terminal is a failed outcome, as data (docs/design.md §3). Statuses
 * are compared as the capture states them; `status-at-least` reads a numeric status (`500`, `"503"`).
 */
export type FailureRule =
  /** The status is one of these (`error`, `timeout`, a `deny` decision…). */
  | { kind: 'status-in'; statuses: readonly string[] }
  /** The status is known and is none of these (every other stated status is a failure). */
  | { kind: 'status-not-in'; statuses: readonly string[] }
  /** The status is numeric (model.ts `numericStatus`) and ≥ `min` (an HTTP status ≥ 500). */
  | { kind: 'status-at-least'; min: number }
  /** The terminal carries an error (a JSON-RPC `error` member, an error text). */
  | { kind: 'error-present' }
  /** Any of the rules holds. */
  | { kind: 'any'; rules: readonly FailureRule[] };

/** The caller of a terminal whose record states none (docs/pairing.md): never another call's default. */
export const UNSTATED_CALLER = '(unstated)';

/** The side field that attributes a call to a row (falls back to the caller when the field is unknown). */
export type AttributionField = 'caller' | 'tool' | 'provider' | 'model';

/**
 * How a channel's ids are read: `correlation` ids follow the safe-shape rule; `protocol` ids are
 * typed (a string or a number, `9` ≠ `"9"`), as JSON-RPC's.
 */
export type IdKind = 'correlation' | 'protocol';

/** How a channel pairs, and what its calls mean (every consumer reads these; none names a channel). */
export interface ChannelSpec {
  name: string;
  /** What one attribution row is called (`caller`, `tool`, `route`, `method`…). */
  rowLabel: string;
  /** Which side field attributes a call to a row. */
  attribution: AttributionField;
  /** Labels of the latency group and subgroup (`provider`, `model`; `tool`; `route`). */
  groupLabels: readonly [string] | readonly [string, string];
  /** When a terminal is a failed outcome. */
  failure: FailureRule;
  idKind: IdKind;
  /** Ordered channels treat order as evidence (docs/design.md §5 confidence rule). */
  ordered: boolean;
  /** Names of the signature fields, aligned with `CallEvent.sig`. */
  signatureFields: readonly string[];
  /**
   * Fallback pairs only by signature: a terminal that shares its signature with no candidate is
   * an orphan response instead of taking the oldest request by FIFO (content that must match).
   */
  signatureRequired?: boolean;
  /**
   * Every terminal is an event of its own (an upstream arrival, a decision), never a re-report of
   * one: a terminal whose id belongs to an already closed call is an orphan response (reason
   * `id-already-closed`) that the profile classifies, not a `DUPLICATE_TERMINAL` note. A reused id
   * then never absorbs a terminal (docs/design.md §5).
   */
  distinctTerminals?: boolean;
  /**
   * `arbitrary`: terminals arrive in an order the producer does not promise (OpenAI Batch output
   * files). FIFO and signature-FIFO are meaningless there: no crossed pairs are counted or
   * reported, and every format says so instead of showing crossed counts (docs/pairing.md, "Words
   * in the report"). Absent: terminals arrive as the producer wrote them.
   */
  terminalOrder?: 'arbitrary';
  /**
   * `undeclared`: the profile names no correlation id, so id coverage is unknown (`null`, `n/a`)
   * and `--min-id-coverage` cannot be evaluated (docs/ci.md). Absent: the channel has ids.
   */
  ids?: 'undeclared';
}

/** The public view of one side of a call. */
export interface CallSide {
  loc: Loc;
  time: number | null;
  /** The engine key (a correlation id, or a typed protocol key such as `n:9`): shown only through `shownId`. */
  id: string | null;
  /** The id's display form on protocol channels (`9`, `"other"`; docs/pairing.md, "How ids are shown"). */
  idLabel?: string;
  caller: string;
  attrs: CallAttrs;
}

/** One call: a request with the terminal that closed it. */
export interface PairRecord {
  channel: string;
  scope: string;
  method: Method;
  confidence: Confidence;
  request: CallSide;
  terminal: CallSide;
  /** terminal time − request time in ms, null when either time is unknown. */
  latencyMs: number | null;
  interims: number;
  /** For id pairs: where plain FIFO would have paired this terminal (null: FIFO had nothing open). */
  fifoPartner?: Loc | null;
  signaturePartner?: Loc | null;
  /** Number of candidates the fallback chose among (1 for id pairs). */
  candidates: number;
  /** Signature of the call (request side, completed by the terminal's known fields). */
  signature: Record<string, string | null> | null;
  /** Open requests of the scope when the terminal arrived, the one it closed included. */
  inFlight?: number;
}

export type ShadowName = 'fifo' | 'signature';

/**
 * What a shadow pairing (docs/design.md §5: plain FIFO, signature-FIFO; they know no ids) gave one
 * non-redundant terminal. Emitted for every such terminal, whatever the real cascade did with it.
 */
export interface ShadowPairRecord {
  channel: string;
  scope: string;
  shadow: ShadowName;
  terminal: CallSide;
  /** The request the shadow gave this terminal; null when the shadow had nothing open. */
  request: CallSide | null;
  /** Shadow-open requests of the scope when the terminal arrived (what the shadow chose among). */
  inFlight: number;
  /** Terminals paired by id: whether the shadow's request differs from the true one. null: no ground truth. */
  crossed: boolean | null;
}

export type OrphanRequestReason = 'end-of-input' | 'evicted';

export interface OrphanRequestRecord {
  channel: string;
  scope: string;
  request: CallSide;
  reason: OrphanRequestReason;
  /** Age against the last event of its scope (ms), null without times. */
  ageMs: number | null;
  interims: number;
}

export interface OrphanResponseRecord {
  channel: string;
  scope: string;
  terminal: CallSide;
  /** Why nothing could take it. */
  reason: 'no-open-request' | 'id-not-open' | 'id-evicted' | 'id-already-closed' | 'signature-conflict';
}

/** The declaration of a channel as reports carry it (plain data; formatters read only this). */
export interface ChannelMeaning {
  rowLabel: string;
  attribution: AttributionField;
  groupLabels: readonly string[];
  failure: FailureRule;
  idKind: IdKind;
  /** Present only on channels whose terminal order is arbitrary (ChannelSpec `terminalOrder`). */
  terminalOrder?: 'arbitrary';
  /** Present only on channels whose profile declares no id (ChannelSpec `ids`). */
  ids?: 'undeclared';
}

export function channelMeaning(spec: ChannelSpec): ChannelMeaning {
  const m: ChannelMeaning = { rowLabel: spec.rowLabel, attribution: spec.attribution, groupLabels: [...spec.groupLabels], failure: spec.failure, idKind: spec.idKind };
  if (spec.terminalOrder === 'arbitrary') m.terminalOrder = 'arbitrary';
  if (spec.ids === 'undeclared') m.ids = 'undeclared';
  return m;
}

/** Is FIFO meaningless on this channel (its terminal order is arbitrary)? */
export function fifoMeaningless(m: Pick<ChannelMeaning, 'terminalOrder'>): boolean {
  return m.terminalOrder === 'arbitrary';
}

/** What a format says instead of crossed counts on such a channel. */
export const ARBITRARY_ORDER_TEXT = 'terminal order is arbitrary: FIFO is meaningless here, no crossed-pair evidence';

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * How an id is shown everywhere (pairs, findings, tables, timeline; docs/pairing.md, "How ids are
 * shown"): a protocol id by its label (a number as written, `9`; a string in JSON quotes,
 * `"other"`; a direction after it, `9 (client)`), a correlation id as it is; a key that has no
 * display form (a hashed string id, a record's own key) is null. Never an internal key (`n:9`).
 */
export function shownId(side: { id: string | null; idLabel?: string }): string | null {
  if (side.idLabel !== undefined) return side.idLabel;
  return side.id !== null && SAFE_ID.test(side.id) ? side.id : null;
}

/** A call's latency group and subgroup (named by the channel's `groupLabels`): its tool, else its provider and model. */
export function latencyGroup(req: { attrs: CallAttrs }, term: { attrs: CallAttrs }): [string | null, string | null] {
  if (req.attrs.tool != null || term.attrs.tool != null) return [req.attrs.tool ?? term.attrs.tool ?? null, null];
  return [req.attrs.provider ?? term.attrs.provider ?? null, req.attrs.model ?? term.attrs.model ?? null];
}

/** What one attribution row is called on a channel. */
export function rowLabel(m: Pick<ChannelMeaning, 'rowLabel'>): string {
  return m.rowLabel;
}

/** The attribution key of one side of a call: the declared field, else the caller. */
export function attributionOf(m: Pick<ChannelMeaning, 'attribution'>, side: { caller: string; attrs: CallAttrs }): string {
  if (m.attribution === 'caller') return side.caller;
  return side.attrs[m.attribution] ?? side.caller;
}

/**
 * A numeric status (docs/profiles.md, "Numeric statuses"): a JSON number, kept as JavaScript writes
 * it (`500`, `499.5`, `1e+21`: exactly `String(n)` of a finite number), or a string of digits with
 * optional spaces around (`"503"`, `" 503 "`; any length: 400 digits is a huge status, not
 * Infinity-and-ignored). Anything else (`"5e2"`, `"0x1f4"`, `"+500"`, `"499.99"`) is not numeric.
 */
export function numericStatus(s: string): number | null {
  // Over 308 digits this is Infinity: above every finite threshold, as the digits are.
  if (/^ *[0-9]+ *$/.test(s)) return Number(s.trim());
  const n = Number(s);
  return Number.isFinite(n) && String(n) === s ? n : null;
}

function failsRule(r: FailureRule, attrs: CallAttrs): boolean {
  const s = attrs.status ?? null;
  switch (r.kind) {
    case 'status-in':
      return s !== null && r.statuses.includes(s);
    case 'status-not-in':
      return s !== null && !r.statuses.includes(s);
    case 'status-at-least': {
      const n = s === null ? null : numericStatus(s);
      return n !== null && n >= r.min;
    }
    case 'error-present':
      return attrs.error !== null && attrs.error !== undefined;
    case 'any':
      return r.rules.some((x) => failsRule(x, attrs));
  }
}

/** The one definition of a failed outcome: does this terminal fail under its channel's declaration? */
export function isFailed(m: Pick<ChannelMeaning, 'failure'>, attrs: CallAttrs): boolean {
  return failsRule(m.failure, attrs);
}
