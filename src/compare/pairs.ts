/**
 * `callpair pairs`: every call, and every orphan, as one NDJSON line, streamed while the one pass
 * runs (listeners on `analyze()`; nothing is kept). Capture strings are JSON-escaped, with the
 * characters terminals and browsers act on escaped too (`safeJson`); only valid ids are written.
 */
import { analyze, type AnalyzeOptions } from '../analyze.js';
import { safeJson } from '../formatters/json.js';
import type { AttributionField, CallSide, ChannelSpec, Loc, OrphanRequestRecord, OrphanResponseRecord, PairRecord } from '../model.js';
import type { CallLine, Named, OrphanLine, PairsLine } from './pairs-line.js';
import { isFailed, latencyGroup, shownId, type FailureRule } from '../model.js';
import type { Report } from '../report/report.js';
import { attributionKey } from './compare.js';

export type { CallLine, OrphanLine, PairsLine } from './pairs-line.js';

function at(l: Loc): string {
  return `${l.path}:${l.line}`;
}

/** Milliseconds rounded to the microsecond (what analytical engines keep of a duration). */
function micro(ms: number | null): number | null {
  return ms === null ? null : Math.round(ms * 1000) / 1000;
}

/**
 * Epoch milliseconds (fractional) as ISO 8601 UTC with microseconds: `2026-10-01T08:00:00.123456Z`.
 * The whole milliseconds and the fraction are rounded apart: microseconds since the epoch pass
 * 2^53 after the year 2255, where one double no longer holds them exactly.
 */
export function isoTime(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms)) return null;
  let whole = Math.floor(ms);
  let us = Math.round((ms - whole) * 1000); // ms − floor(ms) is exact
  if (us === 1000) {
    whole += 1;
    us = 0;
  }
  const d = new Date(whole);
  if (Number.isNaN(d.getTime())) return null;
  const frac = String((((whole % 1000) + 1000) % 1000) * 1000 + us).padStart(6, '0');
  return `${d.toISOString().slice(0, 19)}.${frac}Z`;
}

function safeId(...sides: CallSide[]): string | null {
  for (const s of sides) {
    const id = shownId(s);
    if (id !== null) return id;
  }
  return null;
}

function str(v: string | null | undefined): string | null {
  return v ?? null;
}

/** What a line needs of its channel's declaration. */
export interface LineMeaning {
  attribution: AttributionField;
  failure?: FailureRule;
  /** The labels of the channel's latency group and subgroup (ChannelSpec `groupLabels`). */
  groupLabels?: readonly string[];
}

const DEFAULT_LABELS = ['provider', 'model'] as const;

/** The named columns of a call (its request first, then its terminal) or of one orphaned side. */
function named(meaning: LineMeaning, first: CallSide, second: CallSide = first): Named {
  const [g0, g1] = latencyGroup(first, second);
  const names = meaning.groupLabels ?? DEFAULT_LABELS;
  const labels: Record<string, string | null> = {};
  names.forEach((n, i) => (labels[n] = (i === 0 ? g0 : g1) ?? null));
  const own = (n: string) => (Object.prototype.hasOwnProperty.call(labels, n) ? labels[n]! : null);
  return {
    caller: first.caller,
    rowKey: attributionKey(meaning, first),
    tool: str(first.attrs.tool ?? second.attrs.tool) ?? own('tool'),
    provider: own('provider'),
    model: own('model'),
    labels,
  };
}

/** `meaning`: the channel's declaration (attribution, failure rule, group labels). */
export function callLine(p: PairRecord, meaning: LineMeaning): CallLine {
  const r = p.request;
  const t = p.terminal;
  const line: CallLine = {
    type: 'call',
    channel: p.channel,
    scope: p.scope,
    ...named(meaning, r, t),
    method: p.method,
    confidence: p.confidence,
    request: at(r.loc),
    requestPath: r.loc.path,
    requestLine: r.loc.line,
    terminal: at(t.loc),
    terminalPath: t.loc.path,
    terminalLine: t.loc.line,
    requestTime: isoTime(r.time),
    terminalTime: isoTime(t.time),
    id: safeId(t, r),
    signature: p.signature,
    latencyMs: micro(p.latencyMs),
    status: str(t.attrs.status),
    failed: meaning.failure !== undefined && isFailed({ failure: meaning.failure }, t.attrs),
    usage: t.attrs.usage ?? null,
    interims: p.interims,
    inFlight: p.inFlight ?? null,
  };
  if (p.fifoPartner !== undefined) line.fifoPartner = p.fifoPartner ? at(p.fifoPartner) : null;
  if (p.signaturePartner !== undefined) line.signaturePartner = p.signaturePartner ? at(p.signaturePartner) : null;
  return line;
}

function orphan(kind: 'request' | 'response', channel: string, scope: string, s: CallSide, reason: string, ageMs: number | null, interims: number | null, meaning: LineMeaning): OrphanLine {
  return {
    type: 'orphan',
    kind,
    channel,
    scope,
    ...named(meaning, s),
    location: at(s.loc),
    path: s.loc.path,
    line: s.loc.line,
    eventTime: isoTime(s.time),
    id: safeId(s),
    reason,
    ageMs: micro(ageMs),
    status: str(s.attrs.status),
    usage: s.attrs.usage ?? null,
    interims,
  };
}

export function orphanRequestLine(o: OrphanRequestRecord, meaning: LineMeaning): OrphanLine {
  return orphan('request', o.channel, o.scope, o.request, o.reason, o.ageMs, o.interims, meaning);
}

export function orphanResponseLine(o: OrphanResponseRecord, meaning: LineMeaning): OrphanLine {
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
