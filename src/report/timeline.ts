/**
 * The call timeline (optional report field `timeline`): per scope, the calls with their request and
 * terminal positions, callers, method, confidence, status and the crossed links, for formats that
 * draw a picture (html). Collected during the one pass from the events and the engine's sink, with
 * bounded memory: calls are kept for at most `maxHeldScopes` scopes at once and `maxCallsPerScope`
 * calls per scope; the report lists the `maxScopes` worst scopes and says how many it left out and why.
 *
 * Deterministic: every position is relative to the scope's first kept call, every list in a fixed order.
 */
import { isFailed, type CallEvent, type ChannelMeaning, type Confidence, type Loc, type Method, type OrphanRequestRecord, type OrphanResponseRecord, type PairRecord } from '../model.js';
import type { ChannelState } from '../engine/engine.js';
import { round3 } from '../engine/histogram.js';
import type { ChannelReport, CounterReport } from './report.js';

export interface TimelineOptions {
  /** Scopes drawn, worst first (default 20). */
  maxScopes?: number;
  /** Calls kept per scope (default 200; orphan requests found at the end get a quarter more). */
  maxCallsPerScope?: number;
  /** Scopes whose calls are held at once during the pass (default 4 × maxScopes). */
  maxHeldScopes?: number;
  /** Callers given their own lane per scope (default 16; the rest share one lane). */
  maxLanes?: number;
  /** Latency groups charted per channel (default 12). */
  maxLatencyGroups?: number;
}

export const DEFAULT_TIMELINE_SCOPES = 20;
export const DEFAULT_TIMELINE_CALLS = 200;
export const OTHER_CALLERS_LANE = '(other callers)';

export interface TimelinePoint {
  loc: Loc;
  /** ms since the scope's axis start (axis `time`) or the rank in input order (axis `input-order`). */
  t: number;
}

export interface TimelineCall {
  kind: 'pair' | 'orphan-request' | 'orphan-response';
  /** Index into the scope's `lanes`. */
  lane: number;
  caller: string;
  method: Method | null;
  confidence: Confidence | null;
  /** Terminal status as the capture states it (`ok`, `error`, `cancelled`, …), null when unknown. */
  status: string | null;
  error: boolean;
  timeout: boolean;
  /** Capture-supplied error text (cut to 200 characters), null when none. */
  errorText: string | null;
  /** A valid correlation id, never an invalid one. */
  id: string | null;
  provider: string | null;
  model: string | null;
  tool: string | null;
  request: TimelinePoint | null;
  terminal: TimelinePoint | null;
  /** Where the bar ends: the terminal, or the end of the scope for an orphan request. */
  end: number;
  latencyMs: number | null;
  /** For a pair FIFO crossed: index into `calls` of the request plain FIFO would have given this terminal (null: not kept, or FIFO had nothing open). */
  fifoPartner: number | null;
  crossed: boolean;
  /** Orphan request: why it was never closed. Orphan response: why nothing took it. */
  reason: string | null;
}

export interface TimelineScope {
  channel: string;
  scope: string;
  axis: 'time' | 'input-order';
  /** Epoch ms of t = 0 (axis `time`), null otherwise. */
  start: number | null;
  /** Length of the axis (ms, or input-order ranks). */
  span: number;
  lanes: string[];
  /** The scope's counters from the report (what made it rank where it does). */
  counts: { pairs: number; orphanRequests: number; orphanResponses: number; crossedFifo: number; ambiguous: number; maxInFlight: number };
  calls: TimelineCall[];
  /** Calls of this scope not drawn, and why. */
  omittedCalls: { count: number; reason: string } | null;
  /** Crossed pairs whose FIFO partner request is not among the kept calls. */
  unlinkedCrossed: number;
  /** The scope's calls were kept only from part-way through the pass (it was let go once to bound memory). */
  partial: boolean;
}

export interface LatencyDistribution {
  channel: string;
  group: string | null;
  subgroup: string | null;
  /** [lower bound ms, count], ascending; bins a quarter of a power of two wide (zero has its own bin). */
  buckets: Array<[number, number]>;
}

export interface TimelineReport {
  maxScopes: number;
  maxCallsPerScope: number;
  scopesTotal: number;
  scopes: TimelineScope[];
  /** Scopes not drawn, by reason. */
  omittedScopes: Array<{ count: number; reason: 'past-limit' | 'not-kept' | 'no-calls'; withProblems: number }>;
  latency: LatencyDistribution[];
}

interface RawPoint {
  loc: Loc;
  time: number | null;
}

interface RawCall {
  kind: TimelineCall['kind'];
  caller: string;
  method: Method | null;
  confidence: Confidence | null;
  status: string | null;
  errorText: string | null;
  kindText: string | null;
  id: string | null;
  provider: string | null;
  model: string | null;
  tool: string | null;
  request: RawPoint | null;
  terminal: RawPoint | null;
  /** Orphan request: age against the scope's last event. */
  ageMs: number | null;
  latencyMs: number | null;
  crossed: boolean;
  fifoPartner: Loc | null;
  reason: string | null;
}

interface Held {
  channel: string;
  scope: string;
  calls: RawCall[];
  orphanRequestsKept: number;
  droppedPairs: number;
  droppedOrphans: number;
  open: number;
  /** Problems seen so far (orphan requests are only known at the end: open calls stand in for them). */
  crossed: number;
  orphans: number;
  ambiguous: number;
  lastSeen: number;
  partial: boolean;
  /** Requests seen while held and still open, by loc key: for `partial`. */
  seenOpen: Set<string>;
}

const key = (channel: string, scope: string) => `${channel}\u0000${scope}`;
const locKey = (l: Loc) => `${l.line}\u0000${l.path}`;

export class TimelineCollector {
  private readonly held = new Map<string, Held>();
  private readonly maxScopes: number;
  private readonly maxCalls: number;
  private readonly maxHeld: number;
  private readonly maxLanes: number;
  private readonly maxGroups: number;
  private readonly paths = new Map<string, number>();
  private tick = 0;

  constructor(opts: TimelineOptions = {}) {
    this.maxScopes = Math.max(1, opts.maxScopes ?? DEFAULT_TIMELINE_SCOPES);
    this.maxCalls = Math.max(1, opts.maxCallsPerScope ?? DEFAULT_TIMELINE_CALLS);
    this.maxHeld = Math.max(this.maxScopes, opts.maxHeldScopes ?? 4 * this.maxScopes);
    this.maxLanes = Math.max(1, opts.maxLanes ?? 16);
    this.maxGroups = Math.max(1, opts.maxLatencyGroups ?? 12);
  }

  /** Every event the engine is fed, before it is fed. */
  event(ev: CallEvent): void {
    if (!this.paths.has(ev.loc.path)) this.paths.set(ev.loc.path, this.paths.size);
    const h = this.hold(ev.channel, ev.scope);
    if (!h) return;
    h.lastSeen = ++this.tick;
    if (ev.role === 'request') {
      h.open++;
      h.seenOpen.add(locKey(ev.loc));
    }
  }

  pair(p: PairRecord): void {
    const h = this.held.get(key(p.channel, p.scope));
    if (!h) return;
    this.closeOpen(h, p.request.loc);
    const crossed = p.method === 'id' && p.fifoPartner !== undefined && (p.fifoPartner === null || locKey(p.fifoPartner) !== locKey(p.request.loc));
    if (crossed) h.crossed++;
    if (p.confidence === 'ambiguous') h.ambiguous++;
    const t = p.terminal.attrs;
    const r = p.request.attrs;
    if (h.calls.length - h.orphanRequestsKept >= this.maxCalls) {
      h.droppedPairs++;
      return;
    }
    h.calls.push({
      kind: 'pair',
      caller: p.request.caller,
      method: p.method,
      confidence: p.confidence,
      status: t.status ?? null,
      errorText: cut(t.error ?? null),
      kindText: t.kind ?? null,
      id: p.terminal.id ?? p.request.id,
      provider: r.provider ?? t.provider ?? null,
      model: r.model ?? t.model ?? null,
      tool: r.tool ?? t.tool ?? null,
      request: { loc: p.request.loc, time: p.request.time },
      terminal: { loc: p.terminal.loc, time: p.terminal.time },
      ageMs: null,
      latencyMs: p.latencyMs,
      crossed,
      fifoPartner: crossed ? (p.fifoPartner ?? null) : null,
      reason: null,
    });
  }

  orphanRequest(o: OrphanRequestRecord): void {
    const h = this.held.get(key(o.channel, o.scope));
    if (!h) return;
    this.closeOpen(h, o.request.loc);
    if (h.orphanRequestsKept >= Math.max(10, Math.ceil(this.maxCalls / 4))) {
      h.droppedOrphans++;
      return;
    }
    h.orphanRequestsKept++;
    const a = o.request.attrs;
    h.calls.push({
      kind: 'orphan-request',
      caller: o.request.caller,
      method: null,
      confidence: null,
      status: null,
      errorText: null,
      kindText: a.kind ?? null,
      id: o.request.id,
      provider: a.provider ?? null,
      model: a.model ?? null,
      tool: a.tool ?? null,
      request: { loc: o.request.loc, time: o.request.time },
      terminal: null,
      ageMs: o.ageMs,
      latencyMs: null,
      crossed: false,
      fifoPartner: null,
      reason: o.reason,
    });
  }

  orphanResponse(o: OrphanResponseRecord): void {
    const h = this.held.get(key(o.channel, o.scope));
    if (!h) return;
    h.orphans++;
    if (h.calls.length - h.orphanRequestsKept >= this.maxCalls) {
      h.droppedPairs++;
      return;
    }
    const a = o.terminal.attrs;
    h.calls.push({
      kind: 'orphan-response',
      caller: o.terminal.caller,
      method: null,
      confidence: null,
      status: a.status ?? null,
      errorText: cut(a.error ?? null),
      kindText: a.kind ?? null,
      id: o.terminal.id,
      provider: a.provider ?? null,
      model: a.model ?? null,
      tool: a.tool ?? null,
      request: null,
      terminal: { loc: o.terminal.loc, time: o.terminal.time },
      ageMs: null,
      latencyMs: null,
      crossed: false,
      fifoPartner: null,
      reason: o.reason,
    });
  }

  private closeOpen(h: Held, loc: Loc): void {
    const k = locKey(loc);
    if (h.seenOpen.delete(k)) h.open--;
    else h.partial = true;
  }

  /** The held record of a scope, admitting it if there is room or a clean scope can be let go. */
  private hold(channel: string, scope: string): Held | null {
    const k = key(channel, scope);
    const h = this.held.get(k);
    if (h) return h;
    if (this.held.size >= this.maxHeld) {
      // A new scope always gets a chance: let go of the least bad scope so far (an open call counts
      // as a likely orphan), the least recently active among equals. The worst scopes stay held.
      let victim: [string, Held] | null = null;
      for (const e of this.held) {
        if (!victim || lessBad(e[1], victim[1])) victim = e;
      }
      if (!victim) return null;
      this.held.delete(victim[0]);
    }
    const n: Held = {
      channel,
      scope,
      calls: [],
      orphanRequestsKept: 0,
      droppedPairs: 0,
      droppedOrphans: 0,
      open: 0,
      crossed: 0,
      orphans: 0,
      ambiguous: 0,
      lastSeen: this.tick,
      partial: false,
      seenOpen: new Set(),
    };
    this.held.set(k, n);
    return n;
  }

  /** Builds the report field from the held calls, the finished channel reports and the engine's channel states. */
  build(channels: readonly ChannelReport[], states: Iterable<ChannelState>): TimelineReport {
    const all: Array<{ channel: string; s: CounterReport & { scope: string } }> = [];
    for (const ch of channels) for (const s of ch.scopes) all.push({ channel: ch.channel, s });
    const meanings = new Map(channels.map((ch) => [ch.channel, ch.meaning]));
    all.sort((a, b) => worse(a.s, b.s) || cmpStr(a.channel, b.channel) || cmpStr(a.s.scope, b.s.scope));
    const scopes: TimelineScope[] = [];
    let pastLimit = 0;
    let pastLimitProblems = 0;
    let notKept = 0;
    let notKeptProblems = 0;
    let noCalls = 0;
    for (const { channel, s } of all) {
      const h = this.held.get(key(channel, s.scope));
      const problem = problems(s) > 0;
      if (!h) {
        notKept++;
        if (problem) notKeptProblems++;
        continue;
      }
      if (h.calls.length === 0) {
        noCalls++;
        continue;
      }
      if (scopes.length >= this.maxScopes) {
        pastLimit++;
        if (problem) pastLimitProblems++;
        continue;
      }
      scopes.push(this.scope(h, s, meanings.get(channel)!));
    }
    const omittedScopes: TimelineReport['omittedScopes'] = [];
    if (pastLimit > 0) omittedScopes.push({ count: pastLimit, reason: 'past-limit', withProblems: pastLimitProblems });
    if (notKept > 0) omittedScopes.push({ count: notKept, reason: 'not-kept', withProblems: notKeptProblems });
    if (noCalls > 0) omittedScopes.push({ count: noCalls, reason: 'no-calls', withProblems: 0 });

    const latency: LatencyDistribution[] = [];
    for (const st of states) {
      const groups = [...st.groups.values()]
        .filter((g) => g.hist.count > 0)
        .sort((a, b) => b.hist.count - a.hist.count || cmpStr(a.label[0] ?? '', b.label[0] ?? '') || cmpStr(a.label[1] ?? '', b.label[1] ?? ''))
        .slice(0, this.maxGroups);
      for (const g of groups) latency.push({ channel: st.spec.name, group: g.label[0], subgroup: g.label[1], buckets: coarsen(g.hist.distribution()) });
    }
    return { maxScopes: this.maxScopes, maxCallsPerScope: this.maxCalls, scopesTotal: all.length, scopes, omittedScopes, latency };
  }

  private scope(h: Held, s: CounterReport, meaning: ChannelMeaning): TimelineScope {
    const raw = h.calls;
    const points: RawPoint[] = [];
    for (const c of raw) {
      if (c.request) points.push(c.request);
      if (c.terminal) points.push(c.terminal);
    }
    const timed = points.every((p) => p.time !== null);
    let start: number | null = null;
    let pos: (p: RawPoint) => number;
    if (timed) {
      start = Math.min(...points.map((p) => p.time!));
      const s0 = start;
      pos = (p) => round3(p.time! - s0);
    } else {
      const order = [...points].sort((a, b) => this.cmpLoc(a.loc, b.loc));
      const rank = new Map<string, number>();
      for (const p of order) if (!rank.has(locKey(p.loc))) rank.set(locKey(p.loc), rank.size);
      pos = (p) => rank.get(locKey(p.loc))!;
    }
    // Calls in order of their first point.
    const first = (c: RawCall) => (c.request ?? c.terminal)!;
    const order = raw.map((c, i) => ({ c, i })).sort((a, b) => pos(first(a.c)) - pos(first(b.c)) || this.cmpLoc(first(a.c).loc, first(b.c).loc));
    let span = 0;
    for (const c of raw) {
      if (c.request) span = Math.max(span, pos(c.request));
      if (c.terminal) span = Math.max(span, pos(c.terminal));
      if (timed && c.kind === 'orphan-request' && c.ageMs !== null) span = Math.max(span, round3(pos(c.request!) + c.ageMs));
    }
    if (!timed) span += 1;
    // Lanes: callers by first appearance; past maxLanes they share one lane.
    const lanes: string[] = [];
    const laneOf = new Map<string, number>();
    for (const { c } of order) {
      if (laneOf.has(c.caller)) continue;
      if (lanes.length < this.maxLanes) {
        laneOf.set(c.caller, lanes.length);
        lanes.push(c.caller);
      } else {
        if (lanes.length === this.maxLanes) lanes.push(OTHER_CALLERS_LANE);
        laneOf.set(c.caller, this.maxLanes);
      }
    }
    const reqIndex = new Map<string, number>();
    order.forEach(({ c }, i) => {
      if (c.request) reqIndex.set(locKey(c.request.loc), i);
    });
    let unlinked = 0;
    const calls: TimelineCall[] = order.map(({ c }) => {
      const req = c.request ? { loc: c.request.loc, t: pos(c.request) } : null;
      const term = c.terminal ? { loc: c.terminal.loc, t: pos(c.terminal) } : null;
      let fifoPartner: number | null = null;
      if (c.crossed) {
        fifoPartner = c.fifoPartner ? (reqIndex.get(locKey(c.fifoPartner)) ?? null) : null;
        if (fifoPartner === null) unlinked++;
      }
      const status = c.status;
      // The one definition of a failed outcome: the channel's declaration.
      const error = c.kind !== 'orphan-request' && isFailed(meaning, { status, error: c.errorText });
      const timeout = status === 'timeout' || /time(d)?[\s_-]?out/i.test(c.errorText ?? '') || /timeout/i.test(c.kindText ?? '');
      return {
        kind: c.kind,
        lane: laneOf.get(c.caller)!,
        caller: c.caller,
        method: c.method,
        confidence: c.confidence,
        status,
        error: error || timeout,
        timeout,
        errorText: c.errorText,
        id: c.id,
        provider: c.provider,
        model: c.model,
        tool: c.tool,
        request: req,
        terminal: term,
        end: term ? term.t : span,
        latencyMs: c.latencyMs === null ? null : round3(c.latencyMs),
        fifoPartner,
        crossed: c.crossed,
        reason: c.reason,
      };
    });
    const dropped = h.droppedPairs + h.droppedOrphans;
    const total = s.pairs.total + s.orphanRequests + s.orphanResponses;
    const missing = Math.max(0, total - raw.length);
    const partial = h.partial || missing > dropped;
    const reasons: string[] = [];
    if (dropped > 0) reasons.push(`only the first ${this.maxCalls} calls of a scope are drawn`);
    if (partial) reasons.push('the scope was let go part-way through the pass to bound memory');
    return {
      channel: h.channel,
      scope: h.scope,
      axis: timed ? 'time' : 'input-order',
      start,
      span,
      lanes,
      counts: {
        pairs: s.pairs.total,
        orphanRequests: s.orphanRequests,
        orphanResponses: s.orphanResponses,
        crossedFifo: s.crossed.fifo,
        ambiguous: s.pairs.byConfidence.ambiguous,
        maxInFlight: s.maxInFlight,
      },
      calls,
      omittedCalls: missing > 0 ? { count: missing, reason: reasons.join('; ') } : null,
      unlinkedCrossed: unlinked,
      partial,
    };
  }

  private cmpLoc(a: Loc, b: Loc): number {
    const fa = this.paths.get(a.path) ?? Number.MAX_SAFE_INTEGER;
    const fb = this.paths.get(b.path) ?? Number.MAX_SAFE_INTEGER;
    return fa - fb || a.line - b.line || cmpStr(a.path, b.path);
  }
}

function lessBad(a: Held, b: Held): boolean {
  return (a.crossed - b.crossed || a.orphans + a.open - (b.orphans + b.open) || a.ambiguous - b.ambiguous || a.lastSeen - b.lastSeen) < 0;
}

function problems(s: CounterReport): number {
  return s.crossed.fifo + s.orphanRequests + s.orphanResponses + s.pairs.byConfidence.ambiguous;
}

/** Worst first: most crossed, then orphaned, then ambiguous. */
function worse(a: CounterReport, b: CounterReport): number {
  return (
    b.crossed.fifo - a.crossed.fifo ||
    b.orphanRequests + b.orphanResponses - (a.orphanRequests + a.orphanResponses) ||
    b.pairs.byConfidence.ambiguous - a.pairs.byConfidence.ambiguous ||
    b.maxInFlight - a.maxInFlight
  );
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function cut(s: string | null): string | null {
  if (s === null) return null;
  return s.length > 200 ? s.slice(0, 200) : s;
}

/** Histogram buckets (64 per power of two) merged into 4 per power of two, for a small chart. */
export function coarsen(dist: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const out = new Map<number, number>();
  for (const [low, n] of dist) {
    const b = low <= 0 ? -Infinity : Math.floor(Math.log2(low) * 4);
    out.set(b, (out.get(b) ?? 0) + n);
  }
  return [...out.entries()].sort((a, b) => a[0] - b[0]).map(([b, n]) => [b === -Infinity ? 0 : round3(2 ** (b / 4)), n]);
}
