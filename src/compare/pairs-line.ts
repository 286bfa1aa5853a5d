/**
 * The line shapes `callpair pairs` writes (docs/report.md, `callpair pairs`; docs/pairs.schema.json):
 * plain data, so formatters and the pass that makes them share it without importing each other.
 */
import type { PairRecord, Usage } from '../model.js';

/**
 * The columns every line fills from the channel's declaration (docs/report.md, `callpair pairs`):
 * `tool`, `provider` and `model` hold only what the channel's group labels (or the record) call
 * so; `labels` holds every group value under the label its profile gives it.
 */
export interface Named {
  /** Who made the call, as the record states it (as the table and the findings show it). */
  caller: string;
  /** The row the call counts under in `compare` (the channel's `rowLabel`: caller, tool, method…). */
  rowKey: string;
  tool: string | null;
  provider: string | null;
  model: string | null;
  /** The channel's group labels, each with this call's value (`{"method": "tools/call", "tool": "read_file"}`). */
  labels: Record<string, string | null>;
}

/** One call: a request with the terminal that closed it. */
export interface CallLine extends Named {
  type: 'call';
  channel: string;
  scope: string;
  method: PairRecord['method'];
  confidence: PairRecord['confidence'];
  /** `path:line` of the request and of the terminal, and each as its own fields. */
  request: string;
  requestPath: string;
  requestLine: number;
  terminal: string;
  terminalPath: string;
  terminalLine: number;
  /** When the request and the terminal happened (ISO 8601, UTC, to the microsecond); null when the record has no time. */
  requestTime: string | null;
  terminalTime: string | null;
  /** The id as shown (model.ts `shownId`: a correlation id, or a protocol id's label `9` / `"other"`). */
  id: string | null;
  signature: Record<string, string | null> | null;
  latencyMs: number | null;
  status: string | null;
  /** Whether the terminal is a failed outcome under the channel's declared failure rule (as `failed` counts it). */
  failed: boolean;
  usage: Usage | null;
  interims: number;
  /** Open calls of the scope when the terminal arrived (FIFO is only safe at 1). */
  inFlight: number | null;
  /** Id pairs only: where plain FIFO / signature-FIFO would have paired this terminal (null: nothing open). */
  fifoPartner?: string | null;
  signaturePartner?: string | null;
}

export interface OrphanLine extends Named {
  type: 'orphan';
  kind: 'request' | 'response';
  channel: string;
  scope: string;
  /** `path:line` of the orphaned event (named so no SQL engine reads a keyword: docs/pairs.schema.json), and its parts. */
  location: string;
  path: string;
  line: number;
  /** When the orphaned event happened (ISO 8601, UTC, to the microsecond); null when unknown. */
  eventTime: string | null;
  id: string | null;
  reason: string;
  /** Orphan requests: age against the last event of its scope. */
  ageMs: number | null;
  status: string | null;
  usage: Usage | null;
  interims: number | null;
}

export type PairsLine = CallLine | OrphanLine;
