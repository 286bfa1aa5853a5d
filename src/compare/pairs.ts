/**
 * `callpair pairs`: every call, and every orphan, as one NDJSON line, streamed while the one pass
 * runs (listeners on `analyze()`; nothing is kept). Capture strings are JSON-escaped, with the
 * characters terminals and browsers act on escaped too (`safeJson`); only valid ids are written.
 */
import { analyze, type AnalyzeOptions } from '../analyze.js';
import { safeJson } from '../formatters/json.js';
import type { AttributionField, CallSide, ChannelSpec, Loc, OrphanRequestRecord, OrphanResponseRecord, PairRecord, Usage } from '../model.js';
import { isSafeId } from '../profiles/ids.js';
import type { Report } from '../report/report.js';
import { attributionKey } from './compare.js';

/** One call: a request with the terminal that closed it. */
export interface CallLine {
  type: 'call';
  channel: string;
  scope: string;
  /** The attribution key (as in compare): amplifier caller; tool name elsewhere. */
  caller: string;
  tool: string | null;
  provider: string | null;
  model: string | null;
  method: PairRecord['method'];
  confidence: PairRecord['confidence'];
  /** `path:line` of the request and of the terminal. */
  request: string;
  terminal: string;
  /** The correlation id, only when valid (safe-shape rule). */
  id: string | null;
  signature: Record<string, string | null> | null;
  latencyMs: number | null;
  status: string | null;
  usage: Usage | null;
  interims: number;
  /** Open calls of the scope when the terminal arrived (FIFO is only safe at 1). */
  inFlight: number | null;
  /** Id pairs only: where plain FIFO / signature-FIFO would have paired this terminal (null: nothing open). */
  fifoPartner?: string | null;
  signaturePartner?: string | null;
}

export interface OrphanLine {
  type: 'orphan';
  kind: 'request' | 'response';
  channel: string;
  scope: string;
  caller: string;
  tool: string | null;
  provider: string | null;
  model: string | null;
  /** `path:line` of the orphaned event. */
  at: string;
  id: string | null;
  reason: string;
  /** Orphan requests: age against the last event of its scope. */
  ageMs: number | null;
  status: string | null;
  usage: Usage | null;
  interims: number | null;
}

export type PairsLine = CallLine | OrphanLine;

function at(l: Loc): string {
  return `${l.path}:${l.line}`;
}

function safeId(...ids: Array<string | null>): string | null {
  for (const id of ids) if (isSafeId(id)) return id;
  return null;
}

function str(v: string | null | undefined): string | null {
  return v ?? null;
}

/** `meaning`: the channel's declared attribution (the `caller` field of a line is the row it counts under). */
export function callLine(p: PairRecord, meaning: { attribution: AttributionField }): CallLine {
  const r = p.request;
  const t = p.terminal;
  const line: CallLine = {
    type: 'call',
    channel: p.channel,
    scope: p.scope,
    caller: attributionKey(meaning, r),
    tool: str(r.attrs.tool ?? t.attrs.tool),
    provider: str(r.attrs.provider ?? t.attrs.provider),
    model: str(r.attrs.model ?? t.attrs.model),
    method: p.method,
    confidence: p.confidence,
    request: at(r.loc),
    terminal: at(t.loc),
    id: safeId(t.id, r.id),
    signature: p.signature,
    latencyMs: p.latencyMs,
    status: str(t.attrs.status),
    usage: t.attrs.usage ?? null,
    interims: p.interims,
    inFlight: p.inFlight ?? null,
  };
  if (p.fifoPartner !== undefined) line.fifoPartner = p.fifoPartner ? at(p.fifoPartner) : null;
  if (p.signaturePartner !== undefined) line.signaturePartner = p.signaturePartner ? at(p.signaturePartner) : null;
  return line;
}

function orphan(kind: 'request' | 'response', channel: string, scope: string, s: CallSide, reason: string, ageMs: number | null, interims: number | null, meaning: { attribution: AttributionField }): OrphanLine {
  return {
    type: 'orphan',
    kind,
    channel,
    scope,
    caller: attributionKey(meaning, s),
    tool: str(s.attrs.tool),
    provider: str(s.attrs.provider),
    model: str(s.attrs.model),
    at: at(s.loc),
    id: safeId(s.id),
    reason,
    ageMs,
    status: str(s.attrs.status),
    usage: s.attrs.usage ?? null,
    interims,
  };
}

export function orphanRequestLine(o: OrphanRequestRecord, meaning: { attribution: AttributionField }): OrphanLine {
  return orphan('request', o.channel, o.scope, o.request, o.reason, o.ageMs, o.interims, meaning);
}

export function orphanResponseLine(o: OrphanResponseRecord, meaning: { attribution: AttributionField }): OrphanLine {
  return orphan('response', o.channel, o.scope, o.terminal, o.reason, null, null, meaning);
}

export { pairsLineText } from '../formatters/pairs-ndjson.js';

export interface PairsOptions extends AnalyzeOptions {
  /** Called once per call and per orphan, in pass order. */
  onLine: (line: PairsLine) => void;
}

const BY_CALLER = { attribution: 'caller' } as const;

/** Runs the one pass, handing every call and orphan to `onLine` as it is made; returns the analyze report. */
export function pairs(opts: PairsOptions): Promise<Report> {
  let specs: ReadonlyMap<string, ChannelSpec> = new Map();
  // Every channel is declared before anything is read (`onChannels`); a caller attribution otherwise.
  const m = (channel: string) => specs.get(channel) ?? BY_CALLER;
  return analyze({
    ...opts,
    onChannels: (s) => {
      opts.onChannels?.(s);
      specs = s;
    },
    onPair: (p) => {
      opts.onPair?.(p);
      opts.onLine(callLine(p, m(p.channel)));
    },
    onOrphanRequest: (o) => {
      opts.onOrphanRequest?.(o);
      opts.onLine(orphanRequestLine(o, m(o.channel)));
    },
    onOrphanResponse: (o) => {
      opts.onOrphanResponse?.(o);
      opts.onLine(orphanResponseLine(o, m(o.channel)));
    },
  });
}
