/**
 * Layout of one drawn scope: positions on the scope's axis (time since its first kept call, or rank
 * in input order when any point has no time), calls in order of their first point, one lane per
 * caller (past `maxLanes` they share one), and the crossed links between calls.
 */
import { isFailed, type ChannelMeaning, type Loc } from '../../model.js';
import { round3 } from '../../stats/histogram.js';
import type { CounterReport } from '../parts.js';
import type { TimelineCall, TimelineScope } from './types.js';
import { locKey, type Held, type RawCall, type RawPoint } from './held.js';
import { minOf } from '../../arrays.js';

/** The lane shared by callers past `maxLanes`. */
export const OTHER_CALLERS_LANE = '(other callers)';

export interface LayoutLimits {
  maxLanes: number;
  maxCalls: number;
}

export function layoutScope(h: Held, s: CounterReport, limits: LayoutLimits, cmpLoc: (a: Loc, b: Loc) => number, meaning: ChannelMeaning): TimelineScope {
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
    start = minOf(points.map((p) => p.time!));
    const s0 = start;
    pos = (p) => round3(p.time! - s0);
  } else {
    const order = [...points].sort((a, b) => cmpLoc(a.loc, b.loc));
    const rank = new Map<string, number>();
    for (const p of order) if (!rank.has(locKey(p.loc))) rank.set(locKey(p.loc), rank.size);
    pos = (p) => rank.get(locKey(p.loc))!;
  }
  // Calls in order of their first point.
  const first = (c: RawCall) => (c.request ?? c.terminal)!;
  const order = raw.map((c, i) => ({ c, i })).sort((a, b) => pos(first(a.c)) - pos(first(b.c)) || cmpLoc(first(a.c).loc, first(b.c).loc));
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
    if (lanes.length < limits.maxLanes) {
      laneOf.set(c.caller, lanes.length);
      lanes.push(c.caller);
    } else {
      if (lanes.length === limits.maxLanes) lanes.push(OTHER_CALLERS_LANE);
      laneOf.set(c.caller, limits.maxLanes);
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
  if (dropped > 0) reasons.push(`only the first ${limits.maxCalls} calls of a scope are drawn`);
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
