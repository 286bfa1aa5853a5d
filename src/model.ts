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
export type Method = 'id' | 'signature' | 'fifo';
export type Confidence = 'exact' | 'unambiguous' | 'ambiguous';
export const METHODS: readonly Method[] = ['id', 'signature', 'fifo'];
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
}

/** How a channel pairs. */
export interface ChannelSpec {
  name: string;
  /** Ordered channels treat order as evidence (docs/design.md §5 confidence rule). */
  ordered: boolean;
  /** Names of the signature fields, aligned with `CallEvent.sig`. */
  signatureFields: readonly string[];
  /**
   * Fallback pairs only by signature: a terminal that shares its signature with no candidate is
   * an orphan response instead of taking the oldest request by FIFO (content that must match).
   */
  signatureRequired?: boolean;
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
