/**
 * The one data model shared by every room: input → profiles → engine → report → formatters.
 * Types only (and a few constants); no logic that knows a format.
 */

/** A physical place in the capture. `line` is 1-based. */
export interface Loc {
  path: string;
  line: number;
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
  attrs: CallAttrs;
  loc: Loc;
  /** A terminal the profile knows re-reports an already closed failure: counted, never pairs. */
  redundant?: boolean;
  /** Upper bound on confidence for pairs made with this event's id (an id inherited from another pairing). */
  maxConfidence?: Confidence;
  /** The displayable form of the id (for protocol ids that are not correlation ids). */
  idLabel?: string;
  /** A fixed, capture-free note the ORPHAN_REQUEST finding carries if this request is never closed. */
  orphanNote?: string;
  /** Both events come from one record that holds a whole call: their pair's method is `record`. */
  wholeRecord?: boolean;
}

/**
 * When a terminal is a failed outcome, as data (docs/design.md, the channel declaration). Statuses
 * are compared as the capture states them; `status-at-least` reads a numeric status (`500`, `"503"`).
 */
export type FailureRule =
  /** The status is one of these (`error`, `timeout`, a `deny` decision…). */
  | { kind: 'status-in'; statuses: readonly string[] }
  /** The status is known and is none of these (every other stated status is a failure). */
  | { kind: 'status-not-in'; statuses: readonly string[] }
  /** The status is a number (or a decimal string) ≥ `min` (an HTTP status ≥ 500). */
  | { kind: 'status-at-least'; min: number }
  /** The terminal carries an error (a JSON-RPC `error` member, an error text). */
  | { kind: 'error-present' }
  /** Any of the rules holds. */
  | { kind: 'any'; rules: readonly FailureRule[] };

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
   * Terminals arrive in an order the producer does not promise (OpenAI Batch output files): FIFO
   * and signature-FIFO comparisons are no evidence of crossed pairs, so the report counts and
   * reports none (`compare` still shows what FIFO would do).
   */
  arbitraryTerminalOrder?: boolean;
}

/** The public view of one side of a call. */
export interface CallSide {
  loc: Loc;
  time: number | null;
  id: string | null;
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
  reason: 'no-open-request' | 'id-not-open' | 'id-fell-out-of-window';
}

/** The declaration of a channel as reports carry it (plain data; formatters read only this). */
export interface ChannelMeaning {
  rowLabel: string;
  attribution: AttributionField;
  groupLabels: readonly string[];
  failure: FailureRule;
  idKind: IdKind;
}

export function channelMeaning(spec: ChannelSpec): ChannelMeaning {
  return { rowLabel: spec.rowLabel, attribution: spec.attribution, groupLabels: [...spec.groupLabels], failure: spec.failure, idKind: spec.idKind };
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

function numericStatus(s: string): number | null {
  if (!/^\s*-?\d+(\.\d+)?\s*$/.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
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
