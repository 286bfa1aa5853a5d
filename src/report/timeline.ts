/**
 * The call timeline (optional report field `timeline`): per scope, the calls with their request and
 * terminal positions, callers, method, confidence, status and the crossed links, for formats that
 * draw a picture (html). Collected during the one pass from the events and the engine's sink, with
 * bounded memory: calls are kept for at most `maxHeldScopes` scopes at once and `maxCallsPerScope`
 * calls per scope; the report lists the `maxScopes` worst scopes and says how many it left out and why.
 *
 * Deterministic: every position is relative to the scope's first kept call, every list in a fixed order.
 */
import type { CallEvent, Confidence, Loc, Method, OrphanRequestRecord, OrphanResponseRecord, PairRecord } from '../model.js';
import { shownId } from '../model.js';
import type { ChannelSnapshot } from '../model/snapshot.js';
import type { ChannelReport, CounterReport } from './parts.js';
import type { LatencyDistribution, TimelineCall, TimelineReport, TimelineScope } from './timeline/types.js';
import { ScopeAdmission } from './timeline/admission.js';
import { latencyCharts } from './timeline/buckets.js';
import { locKey, type Held } from './timeline/held.js';
import { layoutScope } from './timeline/layout.js';
import { counterTrouble, worstFirst } from './worst-scopes.js';

export { coarsen } from './timeline/buckets.js';
export { OTHER_CALLERS_LANE } from './timeline/layout.js';
export type { LatencyDistribution, TimelineCall, TimelinePoint, TimelineReport, TimelineScope } from './timeline/types.js';

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

export class TimelineCollector {
  private readonly admission: ScopeAdmission;
  private readonly maxScopes: number;
  private readonly maxCalls: number;
  private readonly maxHeld: number;
  private readonly maxLanes: number;
  private readonly maxGroups: number;
  private readonly paths = new Map<string, number>();

  constructor(opts: TimelineOptions = {}) {
    this.maxScopes = Math.max(1, opts.maxScopes ?? DEFAULT_TIMELINE_SCOPES);
    this.maxCalls = Math.max(1, opts.maxCallsPerScope ?? DEFAULT_TIMELINE_CALLS);
    this.maxHeld = Math.max(this.maxScopes, opts.maxHeldScopes ?? 4 * this.maxScopes);
    this.maxLanes = Math.max(1, opts.maxLanes ?? 16);
    this.maxGroups = Math.max(1, opts.maxLatencyGroups ?? 12);
    this.admission = new ScopeAdmission(this.maxHeld);
  }

  /** Every event the engine is fed, before it is fed. */
  event(ev: CallEvent): void {
    if (!this.paths.has(ev.loc.path)) this.paths.set(ev.loc.path, this.paths.size);
    const h = this.admission.touch(ev.channel, ev.scope);
    if (!h) return;
    if (ev.role === 'request') {
      h.open++;
      h.seenOpen.add(locKey(ev.loc));
    }
  }

  pair(p: PairRecord): void {
    const h = this.admission.get(p.channel, p.scope);
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
      id: shownId(p.terminal) ?? shownId(p.request),
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
    const h = this.admission.get(o.channel, o.scope);
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
      id: shownId(o.request),
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
    const h = this.admission.get(o.channel, o.scope);
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
      id: shownId(o.terminal),
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

  /** Builds the report field from the held calls, the finished channel reports and the engine's snapshot (with distributions). */
  build(channels: readonly ChannelReport[], states: Iterable<ChannelSnapshot>): TimelineReport {
    const listed: Array<{ channel: string; s: CounterReport & { scope: string } }> = [];
    for (const ch of channels) for (const s of ch.scopes) listed.push({ channel: ch.channel, s });
    const meanings = new Map(channels.map((ch) => [ch.channel, ch.meaning]));
    const all = worstFirst(listed, (x) => counterTrouble(x.s), (x) => [x.channel, x.s.scope]);
    const scopes: TimelineScope[] = [];
    let pastLimit = 0;
    let pastLimitProblems = 0;
    let notKept = 0;
    let notKeptProblems = 0;
    let noCalls = 0;
    for (const { channel, s } of all) {
      const h = this.admission.get(channel, s.scope);
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
      scopes.push(layoutScope(h, s, { maxLanes: this.maxLanes, maxCalls: this.maxCalls }, (a, b) => this.cmpLoc(a, b), meanings.get(channel)!));
    }
    const omittedScopes: TimelineReport['omittedScopes'] = [];
    if (pastLimit > 0) omittedScopes.push({ count: pastLimit, reason: 'past-limit', withProblems: pastLimitProblems });
    if (notKept > 0) omittedScopes.push({ count: notKept, reason: 'not-kept', withProblems: notKeptProblems });
    if (noCalls > 0) omittedScopes.push({ count: noCalls, reason: 'no-calls', withProblems: 0 });

    const latency = latencyCharts(states, this.maxGroups);
    return { maxScopes: this.maxScopes, maxCallsPerScope: this.maxCalls, scopesTotal: all.length, scopes, omittedScopes, latency };
  }

  private cmpLoc(a: Loc, b: Loc): number {
    const fa = this.paths.get(a.path) ?? Number.MAX_SAFE_INTEGER;
    const fb = this.paths.get(b.path) ?? Number.MAX_SAFE_INTEGER;
    return fa - fb || a.line - b.line || cmpStr(a.path, b.path);
  }
}

function problems(s: CounterReport): number {
  return s.crossed.fifo + s.orphanRequests + s.orphanResponses + s.pairs.byConfidence.ambiguous;
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function cut(s: string | null): string | null {
  if (s === null) return null;
  return s.length > 200 ? s.slice(0, 200) : s;
}

