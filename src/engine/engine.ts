/**
 * The pairing engine (docs/design.md §5): per channel, per scope, in input order.
 * Knows no format: it sees CallEvents and reports pairs, orphans and findings to a sink.
 *
 * State is bounded by the open requests (and the two shadows' open requests), one small record
 * per scope, and a window of recently closed ids.
 */
import type {
  CallEvent,
  CallSide,
  ChannelSpec,
  Confidence,
  Loc,
  OrphanRequestRecord,
  OrphanResponseRecord,
  PairRecord,
  ShadowName,
  ShadowPairRecord,
} from '../model.js';
import { latencyGroup, shownId } from '../model.js';
import type { Finding, FindingCode } from '../report/findings.js';
import { finding } from '../report/findings.js';
import type { ChannelSnapshot, EngineSnapshot, SnapshotOptions } from '../model/snapshot.js';
import { LatencyHistogram } from '../stats/histogram.js';
import { RecentKeys } from './recent.js';
import { cascade, conflictField, type CascadeMatch } from './cascade.js';
import { forgetInShadows, NO_SHADOWS, takeShadows, type ShadowTake } from './shadows.js';
import {
  addWithId,
  countersSnapshot,
  firstWithId,
  isEmptyOpenSet,
  newCounters,
  newOpenSet,
  OpenQueue,
  removeWithId,
  type ChannelState,
  type Counters,
  type OpenReq,
  type OpenSet,
  type ScopeState,
  type ShadowReq,
} from './state.js';

const SPARE_OPEN_SETS = 64;

export { sigMatch } from './cascade.js';
export { OpenQueue, newCounters, type ChannelState, type Counters, type ScopeState } from './state.js';

export interface EngineSink {
  pair?(p: PairRecord): void;
  orphanRequest?(o: OrphanRequestRecord): void;
  orphanResponse?(o: OrphanResponseRecord): void;
  /** Every non-redundant terminal, once per shadow, after the cascade (compare's attribution). */
  shadowPair?(s: ShadowPairRecord): void;
  /** A scope was folded into its channel's totals (docs/design.md §8): per-scope state of its own can go too. */
  scopeFolded?(channel: string, scope: string): void;
  finding(f: Finding): void;
  /**
   * True when a finding of `code` whose first location is `at` is only counted (then the engine
   * does not make it and gives it to `finding`; the sink has counted it): FindingCollector.skip.
   */
  skipFinding?(code: FindingCode, at: Loc): boolean;
}

export interface EngineOptions {
  channels: readonly ChannelSpec[];
  sink: EngineSink;
  /** Recently closed ids remembered for DUPLICATE_TERMINAL (per channel). */
  closedWindow?: number;
  /** Open requests beyond this (over all scopes of a channel) are evicted as orphans. */
  maxOpenCalls?: number;
  /**
   * Scopes a channel holds state for (default 50 000). Past it, the scope idle the longest is
   * folded into the channel's totals (its counters are already counted there) and SCOPES_FOLDED
   * says how many; scopes with open requests are never folded (they are bounded by maxOpenCalls).
   */
  maxHeldScopes?: number;
}

/** Scopes held per channel by default (docs/design.md §8). */
export const DEFAULT_MAX_HELD_SCOPES = 50_000;

/**
 * Evicted ids remembered per channel (at most the closed-id window): enough to name the cause of
 * the orphan responses that follow an eviction; past it they are `id-not-open`, counted in a note
 * (the eviction note names the cause too). Larger costs memory and time on the runs that evict most.
 */
export const EVICTED_WINDOW = 10_000;

/** The evicted ids an engine with this closed-id window remembers per channel. */
export function evictedWindow(closedWindow: number): number {
  return Math.min(closedWindow, EVICTED_WINDOW);
}

/** Latency groups kept per channel before further (provider, model) pairs share one overflow group. */
export const MAX_LATENCY_GROUPS = 10_000;
const OVERFLOW_GROUP = '\u0001overflow';

export class PairingEngine {
  readonly channels = new Map<string, ChannelState>();
  private readonly sink: EngineSink;
  private readonly closedWindow: number;
  private readonly maxOpenCalls: number;
  private readonly maxHeldScopes: number;
  private idleTick = 0;
  /** Arrival number of the last request (instance state: two engines never share a sequence). */
  private seq = 0;
  /** Empty open sets kept for reuse (maybeDropOpen). */
  private readonly spareOpen: OpenSet[] = [];

  constructor(opts: EngineOptions) {
    this.sink = opts.sink;
    this.closedWindow = opts.closedWindow ?? 100_000;
    this.maxOpenCalls = opts.maxOpenCalls ?? 100_000;
    this.maxHeldScopes = Math.max(1, opts.maxHeldScopes ?? DEFAULT_MAX_HELD_SCOPES);
    for (const spec of opts.channels) this.addChannel(spec);
  }

  addChannel(spec: ChannelSpec): ChannelState {
    let st = this.channels.get(spec.name);
    if (!st) {
      st = {
        spec,
        // A channel whose terminal order is arbitrary reports no crossed pairs: only a listener reads its shadows.
        shadows: this.sink.shadowPair !== undefined || spec.terminalOrder !== 'arbitrary',
        counters: newCounters(),
        scopes: new Map(),
        groups: new Map(),
        lastGroup: null,
        openTotal: 0,
        openQueue: new OpenQueue(),
        closed: new RecentKeys(this.closedWindow),
        evicted: null,
        unsureOrphans: 0,
        unsureRepeats: 0,
        idle: [],
        idleStamps: [],
        idleHead: 0,
        folded: 0,
      };
      this.channels.set(spec.name, st);
    }
    return st;
  }

  private scopeOf(ch: ChannelState, scope: string): ScopeState {
    let s = ch.scopes.get(scope);
    if (!s) {
      if (ch.scopes.size >= this.maxHeldScopes) this.foldIdle(ch);
      s = { scope, counters: newCounters(), open: null, lastTime: null, idleStamp: 0 };
      ch.scopes.set(scope, s);
    }
    return s;
  }

  /** A scope with no open request joins the idle queue (once until it opens a request again). */
  private markIdle(ch: ChannelState, sc: ScopeState): void {
    if (sc.open !== null || sc.idleStamp !== 0) return;
    sc.idleStamp = ++this.idleTick;
    ch.idle.push(sc);
    ch.idleStamps.push(sc.idleStamp);
    if (ch.idle.length - ch.idleHead > 2 * ch.scopes.size + 1024) this.compactIdle(ch, true);
  }

  /** Drops the idle queue's head (taken entries); with `stale`, also entries no longer current. */
  private compactIdle(ch: ChannelState, stale: boolean): void {
    const idle: ScopeState[] = [];
    const stamps: number[] = [];
    for (let i = ch.idleHead; i < ch.idle.length; i++) {
      if (stale && ch.idle[i]!.idleStamp !== ch.idleStamps[i]) continue;
      idle.push(ch.idle[i]!);
      stamps.push(ch.idleStamps[i]!);
    }
    ch.idle = idle;
    ch.idleStamps = stamps;
    ch.idleHead = 0;
  }

  /**
   * Over the scope cap: the scope idle the longest is folded — dropped from the scopes held, its
   * counters living on in the channel's (docs/design.md §8). Nothing idle: the cap is exceeded by
   * scopes with open requests, which --max-open-calls bounds.
   */
  private foldIdle(ch: ChannelState): void {
    while (ch.idleHead < ch.idle.length) {
      const sc = ch.idle[ch.idleHead]!;
      const stamp = ch.idleStamps[ch.idleHead]!;
      ch.idle[ch.idleHead++] = undefined as never;
      if (ch.idleHead > 4096 && ch.idleHead * 2 > ch.idle.length) this.compactIdle(ch, false);
      if (sc.idleStamp !== stamp || sc.open !== null || ch.scopes.get(sc.scope) !== sc) continue;
      ch.scopes.delete(sc.scope);
      ch.folded++;
      this.sink.scopeFolded?.(ch.spec.name, sc.scope);
      return;
    }
  }

  /** Feeds one event. Returns the pair it made, if any (profiles may chain pairings). */
  push(ev: CallEvent): PairRecord | null {
    const ch = this.channels.get(ev.channel);
    if (!ch) throw new Error(`unknown channel ${ev.channel}`);
    const sc = this.scopeOf(ch, ev.scope);
    if (ev.time !== null && (sc.lastTime === null || ev.time > sc.lastTime)) sc.lastTime = ev.time;
    switch (ev.role) {
      case 'request':
        this.request(ch, sc, ev);
        return null;
      case 'interim':
        this.interim(ch, sc, ev);
        this.markIdle(ch, sc);
        return null;
      case 'terminal': {
        const p = this.terminal(ch, sc, ev);
        this.markIdle(ch, sc);
        return p;
      }
    }
  }

  private request(ch: ChannelState, sc: ScopeState, ev: CallEvent): void {
    if (ev.pastWindow) ch.unsureRepeats++;
    if (ev.unanswered) return this.unanswered(ch, sc, ev);
    const open = (sc.open ??= this.spareOpen.pop() ?? newOpenSet());
    // Busy again: its idle-queue entry is stale until it is idle once more.
    sc.idleStamp = 0;
    const seq = ++this.seq;
    // One object for every pool it enters (src/engine/pool.ts), the shadows' included.
    const req: OpenReq = { seq, sig: ev.sig, live: 0, mask: undefined, full: undefined, ev, interims: 0, sc };
    const cc = ch.counters;
    const scc = sc.counters;
    countRequest(cc, ev);
    countRequest(scc, ev);
    if (ev.id !== null) {
      const first = addWithId(open, ev.id, req);
      if (first !== undefined || ev.repeatOf !== undefined) {
        this.sink.finding(
          finding('DUPLICATE_ID', { channel: ch.spec.name, scope: sc.scope, locations: [ev.repeatOf ?? first!.ev.loc, ev.loc] }, { id: shownId(ev), caller: ev.caller }),
        );
        cc.duplicateIds++;
        scc.duplicateIds++;
      }
    } else open.noId.add(req);
    open.all.add(req);
    if (ch.shadows) {
      open.fifo.add(req);
      open.sigShadow.add(req);
    }
    ch.openTotal++;
    ch.openQueue.push(req, ch.openTotal);
    // Evicted first, then counted: no scope is said to hold more than --max-open-calls at once. The
    // oldest request evicted is never this one (two at least are open), so the scope keeps `open`.
    if (ch.openTotal > this.maxOpenCalls) this.evictOldest(ch);
    countInFlight(ch, sc, open.all.size + (ev.waiting ?? 0));
  }

  /** A request the profile knows nothing answers: counted, and an orphan request at once (end of input). */
  private unanswered(ch: ChannelState, sc: ScopeState, ev: CallEvent): void {
    countRequest(ch.counters, ev);
    countRequest(sc.counters, ev);
    countInFlight(ch, sc, (sc.open ? sc.open.all.size : 0) + 1 + (ev.waiting ?? 0));
    this.orphanRequest(ch, sc, ev, 0, 'end-of-input');
    this.markIdle(ch, sc);
  }

  /** Over --max-open-calls: the channel's oldest open request becomes an orphan with reason `evicted`. */
  private evictOldest(ch: ChannelState): void {
    const req = ch.openQueue.shiftLive();
    if (!req) return;
    const sc = req.sc;
    const open = sc.open!;
    this.removeOpen(ch, sc, req);
    // The shadows forget it too: an evicted call is gone from every view. A shadow never holds more
    // than the scope's open requests (without eviction that holds by construction), so it is trimmed
    // oldest-first when its own copy of this request was already taken.
    forgetInShadows(open, req);
    if (req.ev.id !== null) (ch.evicted ??= new RecentKeys(evictedWindow(this.closedWindow))).remember(sc.scope, req.ev.id);
    this.orphanRequest(ch, sc, req.ev, req.interims, 'evicted');
    this.maybeDropOpen(sc);
    this.markIdle(ch, sc);
  }

  private interim(ch: ChannelState, sc: ScopeState, ev: CallEvent): void {
    ch.counters.interims++;
    sc.counters.interims++;
    const open = sc.open;
    let target: OpenReq | undefined;
    if (open) {
      if (ev.id !== null) target = firstWithId(open, ev.id);
      else if (open.all.size === 1) target = open.all.first();
    }
    if (target) target.interims++;
    else {
      ch.counters.unattributedInterims++;
      sc.counters.unattributedInterims++;
    }
  }

  private removeOpen(ch: ChannelState, sc: ScopeState, req: OpenReq): void {
    const open = sc.open!;
    open.all.delete(req);
    removeWithId(open, req);
    if (req.ev.id === null) open.noId.delete(req);
    ch.openTotal--;
    ch.openQueue.closed(ch.openTotal);
  }

  private maybeDropOpen(sc: ScopeState): void {
    const o = sc.open;
    if (o && o.all.size === 0 && o.fifo.size === 0 && o.sigShadow.size === 0) {
      sc.open = null;
      // Most scopes open and empty a set per call: an empty one is kept for the next (fewer
      // allocations, less garbage), a few at most.
      if (this.spareOpen.length < SPARE_OPEN_SETS && isEmptyOpenSet(o)) this.spareOpen.push(o);
    }
  }

  /** A terminal: the shadows take their partners, then the cascade pairs it, or it is an orphan or a duplicate. */
  private terminal(ch: ChannelState, sc: ScopeState, ev: CallEvent): PairRecord | null {
    ch.counters.terminals++;
    sc.counters.terminals++;
    if (ev.id !== null && !ev.ownKey) {
      ch.counters.terminalsWithId++;
      sc.counters.terminalsWithId++;
    }
    if (ev.redundant) {
      ch.counters.redundant++;
      sc.counters.redundant++;
      return null;
    }
    const inFlight = (sc.open ? sc.open.all.size : 0) + (ev.waiting ?? 0);
    // Requests waiting in the profile may have come after the last request the engine saw.
    if (ev.waiting) countInFlight(ch, sc, inFlight);
    // Shadows first: they know no ids and see every non-redundant terminal.
    const shadows = ch.shadows ? takeShadows(sc.open, ev) : NO_SHADOWS;
    const result = cascade(sc.open, ev, ch.spec);
    if (result !== null && 'conflict' in result) {
      this.conflicting(ch, sc, ev, result.conflict);
      this.maybeDropOpen(sc);
      this.emitShadows(ch, sc, ev, shadows, null);
      return null;
    }
    const match = result;
    if (!match) {
      this.unmatched(ch, sc, ev);
      this.maybeDropOpen(sc);
      this.emitShadows(ch, sc, ev, shadows, null);
      return null;
    }
    const pair = this.paired(ch, sc, ev, match, shadows, inFlight);
    this.maybeDropOpen(sc);
    this.emitShadows(ch, sc, ev, shadows, match);
    this.sink.pair?.(pair);
    return pair;
  }

  /**
   * The terminal's id is open but, on a channel that requires a signature, every request holding it
   * names other content: SIGNATURE_CONFLICT, and the terminal is an orphan response (never a pair).
   */
  private conflicting(ch: ChannelState, sc: ScopeState, ev: CallEvent, req: OpenReq): void {
    const i = conflictField(ev.sig, req.ev.sig);
    this.sink.finding(
      finding(
        'SIGNATURE_CONFLICT',
        { channel: ch.spec.name, scope: sc.scope, locations: [ev.loc, req.ev.loc] },
        {
          id: ev.id!,
          caller: ev.caller,
          field: ch.spec.signatureFields[i] ?? null,
          request: req.ev.sig?.[i] ?? null,
          terminal: ev.sig?.[i] ?? null,
        },
      ),
    );
    this.orphanResponse(ch, sc, ev, 'signature-conflict');
  }

  /** A terminal nothing could take: a duplicate of a recently closed id, or an orphan response. */
  private unmatched(ch: ChannelState, sc: ScopeState, ev: CallEvent): void {
    // An id evicted (and maybe closed too: a duplicate id): the evicted request may be the one it
    // answers, so it is no duplicate terminal but an orphan of the bound.
    if (ev.id !== null && ch.evicted?.has(sc.scope, ev.id)) return this.orphanResponse(ch, sc, ev, 'id-evicted');
    if (ev.id !== null && ch.closed.has(sc.scope, ev.id)) {
      // On a channel whose terminals are each an event of their own (an arrival), a reused id
      // never absorbs one: it stays an orphan response for the profile to account for.
      if (ch.spec.distinctTerminals) return this.orphanResponse(ch, sc, ev, 'id-already-closed');
      ch.counters.duplicateTerminals++;
      sc.counters.duplicateTerminals++;
      this.sink.finding(
        finding('DUPLICATE_TERMINAL', { channel: ch.spec.name, scope: sc.scope, locations: [ev.loc] }, { id: shownId(ev), caller: ev.caller }),
      );
      return;
    }
    if (ev.id === null) return this.orphanResponse(ch, sc, ev, 'no-open-request');
    // Not remembered as closed or evicted, but a window that forgot ids cannot say it never was
    // (a terminal the profile says answers nothing, orphanNote, is no such doubt).
    if (ev.orphanNote === undefined && (ch.closed.forgotten || ch.evicted?.forgotten)) ch.unsureOrphans++;
    this.orphanResponse(ch, sc, ev, 'id-not-open');
  }

  private orphanResponse(ch: ChannelState, sc: ScopeState, ev: CallEvent, reason: OrphanResponseRecord['reason']): void {
    ch.counters.orphanResponses++;
    sc.counters.orphanResponses++;
    const rec: OrphanResponseRecord = { channel: ch.spec.name, scope: sc.scope, terminal: side(ev), reason };
    this.sink.orphanResponse?.(rec);
    if (this.sink.skipFinding?.('ORPHAN_RESPONSE', ev.loc)) return;
    this.sink.finding(
      finding(
        'ORPHAN_RESPONSE',
        { channel: ch.spec.name, scope: sc.scope, locations: [ev.loc] },
        ev.orphanNote !== undefined
          ? { caller: ev.caller, reason, id: shownId(ev), kind: ev.attrs.kind, tool: ev.attrs.tool ?? null, note: ev.orphanNote }
          : { caller: ev.caller, reason, id: shownId(ev), kind: ev.attrs.kind, tool: ev.attrs.tool ?? null },
      ),
    );
  }

  /** Closes the request the cascade took: the pair record, its counters and latency, crossed and ambiguous findings. */
  private paired(ch: ChannelState, sc: ScopeState, ev: CallEvent, match: CascadeMatch, shadows: ShadowTake, inFlight: number): PairRecord {
    const { taken, method, candidates } = match;
    let { confidence } = match;
    this.removeOpen(ch, sc, taken);
    const req = taken.ev;
    // An id inherited from another pairing is no surer than that pairing.
    if (req.maxConfidence) confidence = weaker(confidence, req.maxConfidence);
    if (ev.maxConfidence) confidence = weaker(confidence, ev.maxConfidence);
    if (method === 'id' || method === 'record') {
      this.rememberClosed(ch, sc.scope, ev.id!);
    } else if (req.id !== null) {
      this.rememberClosed(ch, sc.scope, req.id);
    }

    let latencyMs: number | null = null;
    if (req.time !== null && ev.time !== null) latencyMs = ev.time - req.time;
    // A whole-call record that states its duration but no start (a custom profile's `duration`).
    else if (method === 'record' && ev.attrs.durationMs !== undefined && ev.attrs.durationMs !== null) latencyMs = ev.attrs.durationMs;

    const pair: PairRecord = {
      channel: ch.spec.name,
      scope: sc.scope,
      method,
      confidence,
      request: side(req),
      terminal: side(ev),
      latencyMs,
      interims: taken.interims,
      candidates,
      signature: mergedSignature(ch.spec, req, ev),
      inFlight,
    };

    countPair(ch.counters, method, confidence, latencyMs, ev.loc);
    countPair(sc.counters, method, confidence, latencyMs, ev.loc);
    if (latencyMs !== null && latencyMs >= 0) this.recordGroupLatency(ch, req, ev, latencyMs, ev.loc);
    else if (latencyMs !== null && req.time !== null && ev.time !== null)
      // Reported, never corrected: both times as stated, the latency kept out of the percentiles.
      this.sink.finding(finding('CLOCK_SKEW', { channel: ch.spec.name, scope: sc.scope, locations: [ev.loc, req.loc] }, { requestTime: req.time, terminalTime: ev.time, skewMs: req.time - ev.time, id: shownId(ev) }));

    if (method === 'record') {
      // One record held the whole call: nothing to compare with FIFO, nothing ambiguous.
    } else if (method === 'id') {
      // A channel whose terminal order is arbitrary by contract: FIFO is no evidence (ChannelSpec).
      if (ch.spec.terminalOrder === 'arbitrary') return pair;
      const { fifo: fifoPartner, signature: sigPartner } = shadows;
      ch.counters.crossedComparable++;
      sc.counters.crossedComparable++;
      pair.fifoPartner = fifoPartner ? fifoPartner.ev.loc : null;
      pair.signaturePartner = sigPartner ? sigPartner.ev.loc : null;
      if (fifoPartner !== taken) {
        ch.counters.crossedFifo++;
        sc.counters.crossedFifo++;
        this.crossed(ch, sc, 'fifo', ev, req, fifoPartner);
      }
      if (sigPartner !== taken) {
        ch.counters.crossedSignature++;
        sc.counters.crossedSignature++;
        this.crossed(ch, sc, 'signature', ev, req, sigPartner);
      }
    } else if (confidence === 'ambiguous' && !this.sink.skipFinding?.('AMBIGUOUS_PAIR', ev.loc)) {
      this.sink.finding(
        finding(
          'AMBIGUOUS_PAIR',
          { channel: ch.spec.name, scope: sc.scope, locations: [ev.loc, req.loc] },
          { caller: req.caller, candidates, method },
        ),
      );
    }
    return pair;
  }

  private recordGroupLatency(ch: ChannelState, req: CallEvent, ev: CallEvent, latencyMs: number, at: Loc): void {
    // The group's two labels as latencyGroup (src/model.ts) makes them, without its array: most
    // pairs fall in the group of the pair before (groups are never dropped), so no key is built then.
    const ra = req.attrs;
    const ta = ev.attrs;
    let a: string | null;
    let b: string | null;
    if (ra.tool != null || ta.tool != null) {
      a = ra.tool ?? ta.tool ?? null;
      b = null;
    } else {
      a = ra.provider ?? ta.provider ?? null;
      b = ra.model ?? ta.model ?? null;
    }
    const last = ch.lastGroup;
    if (last !== null && last.a === a && last.b === b) {
      last.group.hist.record(latencyMs, at);
      return;
    }
    const groupLabel = latencyGroup(req, ev);
    const key = `${groupLabel[0] ?? ''}\u0000${groupLabel[1] ?? ''}`;
    let g = ch.groups.get(key);
    if (!g) {
      // Distinct (provider, model) pairs are capture-supplied: past MAX_LATENCY_GROUPS they share
      // one overflow group, so hostile names cannot grow memory without bound.
      if (ch.groups.size >= MAX_LATENCY_GROUPS) {
        g = ch.groups.get(OVERFLOW_GROUP);
        if (!g) ch.groups.set(OVERFLOW_GROUP, (g = { label: ['(other groups)', null], hist: new LatencyHistogram() }));
      } else ch.groups.set(key, (g = { label: groupLabel, hist: new LatencyHistogram() }));
    }
    if (last === null) ch.lastGroup = { a, b, group: g };
    else {
      last.a = a;
      last.b = b;
      last.group = g;
    }
    g.hist.record(latencyMs, at);
  }

  /** What each shadow gave this terminal (compare's attribution); `crossed` only where the cascade paired by id. */
  private emitShadows(ch: ChannelState, sc: ScopeState, ev: CallEvent, shadows: ShadowTake, match: CascadeMatch | null): void {
    if (!this.sink.shadowPair) return;
    // Shadow records are kept on a channel whose terminal order is arbitrary too (compare's attribution
    // rows); its formats show no crossed counts there (ChannelSpec terminalOrder, docs/profiles.md).
    const byId = match !== null && match.method === 'id';
    const taken = match?.taken;
    this.shadowPair(ch, sc, 'fifo', ev, shadows.fifo, shadows.fifoInFlight, byId ? shadows.fifo !== taken : null);
    this.shadowPair(ch, sc, 'signature', ev, shadows.signature, shadows.signatureInFlight, byId ? shadows.signature !== taken : null);
  }

  private shadowPair(
    ch: ChannelState,
    sc: ScopeState,
    shadow: ShadowName,
    ev: CallEvent,
    partner: ShadowReq | null,
    inFlight: number,
    crossed: boolean | null,
  ): void {
    this.sink.shadowPair!({
      channel: ch.spec.name,
      scope: sc.scope,
      shadow,
      terminal: side(ev),
      request: partner ? side(partner.ev) : null,
      inFlight,
      crossed,
    });
  }

  private crossed(ch: ChannelState, sc: ScopeState, shadow: 'fifo' | 'signature', ev: CallEvent, req: CallEvent, partner: ShadowReq | null): void {
    // Past the findings kept, only counted: not made.
    if (this.sink.skipFinding?.('CROSSED_PAIR', ev.loc)) return;
    const locations = [ev.loc, req.loc];
    if (partner) locations.push(partner.ev.loc);
    this.sink.finding(
      finding(
        'CROSSED_PAIR',
        { channel: ch.spec.name, scope: sc.scope, locations },
        // A terminal that states no caller is its true partner's (never the default of another call).
        { shadow, terminalCaller: ev.callerUnstated ? req.caller : ev.caller, trueCaller: req.caller, shadowCaller: partner ? partner.ev.caller : null, id: shownId(ev) },
      ),
    );
  }

  private rememberClosed(ch: ChannelState, scope: string, id: string): void {
    ch.closed.remember(scope, id);
  }

  private orphanRequest(ch: ChannelState, sc: ScopeState, ev: CallEvent, interims: number, reason: 'end-of-input' | 'evicted'): void {
    const ageMs = sc.lastTime !== null && ev.time !== null ? sc.lastTime - ev.time : null;
    ch.counters.orphanRequests++;
    sc.counters.orphanRequests++;
    if (reason === 'evicted') {
      ch.counters.evicted++;
      sc.counters.evicted++;
    }
    const rec: OrphanRequestRecord = { channel: ch.spec.name, scope: sc.scope, request: side(ev), reason, ageMs, interims };
    this.sink.orphanRequest?.(rec);
    if (this.sink.skipFinding?.('ORPHAN_REQUEST', ev.loc)) return;
    this.sink.finding(
      finding(
        'ORPHAN_REQUEST',
        { channel: ch.spec.name, scope: sc.scope, locations: [ev.loc] },
        // The profile's note says why a request was never closed; an evicted one may have been.
        ev.orphanNote !== undefined && reason !== 'evicted'
          ? { caller: ev.caller, reason, ageMs, id: shownId(ev), note: ev.orphanNote, tool: ev.attrs.tool ?? null }
          : { caller: ev.caller, reason, ageMs, id: shownId(ev), tool: ev.attrs.tool ?? null },
      ),
    );
  }

  /** The engine's counters, scopes and latency groups as plain data (the report reads only this). */
  snapshot(opts: SnapshotOptions = {}): EngineSnapshot {
    const channels: ChannelSnapshot[] = [];
    for (const ch of this.channels.values()) {
      channels.push({
        spec: ch.spec,
        counters: countersSnapshot(ch.counters),
        scopes: [...ch.scopes.values()].map((s) => ({ scope: s.scope, counters: countersSnapshot(s.counters) })),
        ...(ch.folded > 0 ? { scopesFolded: ch.folded } : {}),
        ...(ch.unsureOrphans > 0 ? { unsureOrphans: ch.unsureOrphans } : {}),
        ...(ch.unsureRepeats > 0 ? { unsureRepeats: ch.unsureRepeats } : {}),
        latencyGroups: [...ch.groups.values()].flatMap((g) => {
          const stats = g.hist.stats();
          if (!stats) return [];
          return [{ group: g.label[0], subgroup: g.label[1], stats, sketch: g.hist.sketch()!, ...(opts.distributions ? { distribution: g.hist.distribution() } : {}) }];
        }),
        latencySketch: ch.counters.latency.sketch(),
      });
    }
    return { channels };
  }

  /** End of input: every open request is an orphan request, scope by scope in first-seen order. */
  finish(): void {
    for (const ch of this.channels.values()) {
      if (ch.folded > 0) {
        this.sink.finding(
          finding('SCOPES_FOLDED', { channel: ch.spec.name, scope: null, locations: [] }, { folded: ch.folded, held: ch.scopes.size, limit: this.maxHeldScopes }),
        );
      }
      for (const sc of ch.scopes.values()) {
        const open = sc.open;
        if (!open) continue;
        for (const req of [...open.all.values()]) {
          this.removeOpen(ch, sc, req);
          this.orphanRequest(ch, sc, req.ev, req.interims, 'end-of-input');
        }
        sc.open = null;
      }
    }
  }
}

const RANK: Record<Confidence, number> = { exact: 0, unambiguous: 1, ambiguous: 2 };
function weaker(a: Confidence, b: Confidence): Confidence {
  return RANK[a] >= RANK[b] ? a : b;
}

/** One request on a channel's or a scope's counters. */
function countRequest(c: Counters, ev: CallEvent): void {
  c.requests++;
  if (ev.id !== null && !ev.ownKey) c.requestsWithId++;
}

/** `n` calls in flight in scope `sc`: the scope's and the channel's maximum. */
function countInFlight(ch: ChannelState, sc: ScopeState, n: number): void {
  if (n > sc.counters.maxInFlight) sc.counters.maxInFlight = n;
  if (n > ch.counters.maxInFlight) ch.counters.maxInFlight = n;
}

/** One pair on a channel's or a scope's counters. */
function countPair(c: Counters, method: PairRecord['method'], confidence: Confidence, latencyMs: number | null, at: Loc): void {
  c.pairs++;
  c.byMethod[method]++;
  c.byConfidence[confidence]++;
  if (latencyMs !== null) {
    if (latencyMs < 0) c.negativeLatencies++;
    else {
      if (latencyMs === 0) c.zeroLatencies++;
      c.latency.record(latencyMs, at);
    }
  }
}

function side(ev: CallEvent): CallSide {
  const s: CallSide = { loc: ev.loc, time: ev.time, id: ev.id, caller: ev.caller, attrs: ev.attrs };
  if (ev.idLabel !== undefined) s.idLabel = ev.idLabel;
  return s;
}

function mergedSignature(spec: ChannelSpec, req: CallEvent, term: CallEvent): Record<string, string | null> | null {
  if (spec.signatureFields.length === 0) return null;
  const out: Record<string, string | null> = Object.create(null);
  const names = spec.signatureFields;
  for (let i = 0; i < names.length; i++) out[names[i]!] = req.sig?.[i] ?? term.sig?.[i] ?? null;
  return out;
}
