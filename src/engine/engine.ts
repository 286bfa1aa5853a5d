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
  Method,
  OrphanRequestRecord,
  OrphanResponseRecord,
  PairRecord,
  ShadowName,
  ShadowPairRecord,
} from '../model.js';
import type { Finding } from '../report/findings.js';
import { finding } from '../report/findings.js';
import { LatencyHistogram } from './histogram.js';

export interface EngineSink {
  pair?(p: PairRecord): void;
  orphanRequest?(o: OrphanRequestRecord): void;
  orphanResponse?(o: OrphanResponseRecord): void;
  /** Every non-redundant terminal, once per shadow, after the cascade (compare's attribution). */
  shadowPair?(s: ShadowPairRecord): void;
  finding(f: Finding): void;
}

export interface EngineOptions {
  channels: readonly ChannelSpec[];
  sink: EngineSink;
  /** Recently closed ids remembered for DUPLICATE_TERMINAL (per channel). */
  closedWindow?: number;
  /** Open requests beyond this (over all scopes of a channel) are evicted as orphans. */
  maxOpenCalls?: number;
}

/** Counters of one channel or one scope. */
export interface Counters {
  requests: number;
  terminals: number;
  interims: number;
  unattributedInterims: number;
  redundant: number;
  pairs: number;
  byMethod: Record<Method, number>;
  byConfidence: Record<Confidence, number>;
  orphanRequests: number;
  evicted: number;
  orphanResponses: number;
  duplicateTerminals: number;
  duplicateIds: number;
  crossedComparable: number;
  crossedFifo: number;
  crossedSignature: number;
  requestsWithId: number;
  terminalsWithId: number;
  maxInFlight: number;
  negativeLatencies: number;
  latency: LatencyHistogram;
}

export function newCounters(): Counters {
  return {
    requests: 0,
    terminals: 0,
    interims: 0,
    unattributedInterims: 0,
    redundant: 0,
    pairs: 0,
    byMethod: { id: 0, signature: 0, fifo: 0 },
    byConfidence: { exact: 0, unambiguous: 0, ambiguous: 0 },
    orphanRequests: 0,
    evicted: 0,
    orphanResponses: 0,
    duplicateTerminals: 0,
    duplicateIds: 0,
    crossedComparable: 0,
    crossedFifo: 0,
    crossedSignature: 0,
    requestsWithId: 0,
    terminalsWithId: 0,
    maxInFlight: 0,
    negativeLatencies: 0,
    latency: new LatencyHistogram(),
  };
}

interface OpenReq {
  seq: number;
  ev: CallEvent;
  interims: number;
}

interface ShadowReq {
  seq: number;
  sig: readonly (string | null)[] | null;
  loc: Loc;
  caller: string;
  ev: CallEvent;
}

/** The open requests of one scope, in order; dropped when empty so idle scopes stay small. */
interface OpenSet {
  all: Map<number, OpenReq>;
  noId: Map<number, OpenReq>;
  byId: Map<string, OpenReq[]>;
  fifo: Map<number, ShadowReq>;
  sigShadow: Map<number, ShadowReq>;
}

export interface ScopeState {
  scope: string;
  counters: Counters;
  open: OpenSet | null;
  lastTime: number | null;
}

/** Per channel: its scopes, counters, and per-group latency. */
export interface ChannelState {
  spec: ChannelSpec;
  counters: Counters;
  scopes: Map<string, ScopeState>;
  /** Latency per (provider, model) or per tool: key → histogram; label parts kept beside. */
  groups: Map<string, { label: [string | null, string | null]; hist: LatencyHistogram }>;
  openTotal: number;
  /** Open requests of the channel in arrival order, so eviction takes the channel's oldest. */
  openQueue: OpenQueue;
  closed: Map<string, true>;
}

let seqCounter = 0;

/** Latency groups kept per channel before further (provider, model) pairs share one overflow group. */
export const MAX_LATENCY_GROUPS = 10_000;
const OVERFLOW_GROUP = '\u0001overflow';

export class PairingEngine {
  readonly channels = new Map<string, ChannelState>();
  private readonly sink: EngineSink;
  private readonly closedWindow: number;
  private readonly maxOpenCalls: number;

  constructor(opts: EngineOptions) {
    this.sink = opts.sink;
    this.closedWindow = opts.closedWindow ?? 100_000;
    this.maxOpenCalls = opts.maxOpenCalls ?? 100_000;
    for (const spec of opts.channels) this.addChannel(spec);
  }

  addChannel(spec: ChannelSpec): ChannelState {
    let st = this.channels.get(spec.name);
    if (!st) {
      st = { spec, counters: newCounters(), scopes: new Map(), groups: new Map(), openTotal: 0, openQueue: new OpenQueue(), closed: new Map() };
      this.channels.set(spec.name, st);
    }
    return st;
  }

  private scopeOf(ch: ChannelState, scope: string): ScopeState {
    let s = ch.scopes.get(scope);
    if (!s) {
      s = { scope, counters: newCounters(), open: null, lastTime: null };
      ch.scopes.set(scope, s);
    }
    return s;
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
        return null;
      case 'terminal':
        return this.terminal(ch, sc, ev);
    }
  }

  private bump(ch: ChannelState, sc: ScopeState, f: (c: Counters) => void): void {
    f(ch.counters);
    f(sc.counters);
  }

  private request(ch: ChannelState, sc: ScopeState, ev: CallEvent): void {
    const open = (sc.open ??= { all: new Map(), noId: new Map(), byId: new Map(), fifo: new Map(), sigShadow: new Map() });
    const seq = ++seqCounter;
    const req: OpenReq = { seq, ev, interims: 0 };
    this.bump(ch, sc, (c) => {
      c.requests++;
      if (ev.id !== null) c.requestsWithId++;
    });
    if (ev.id !== null) {
      const list = open.byId.get(ev.id);
      if (list && list.length > 0) {
        this.sink.finding(
          finding('DUPLICATE_ID', { channel: ch.spec.name, scope: sc.scope, locations: [list[0]!.ev.loc, ev.loc] }, { id: ev.id, caller: ev.caller }),
        );
        this.bump(ch, sc, (c) => c.duplicateIds++);
        list.push(req);
      } else open.byId.set(ev.id, [req]);
    } else open.noId.set(seq, req);
    open.all.set(seq, req);
    const shadow: ShadowReq = { seq, sig: ev.sig, loc: ev.loc, caller: ev.caller, ev };
    open.fifo.set(seq, shadow);
    open.sigShadow.set(seq, shadow);
    const inFlight = open.all.size;
    if (inFlight > sc.counters.maxInFlight) sc.counters.maxInFlight = inFlight;
    if (inFlight > ch.counters.maxInFlight) ch.counters.maxInFlight = inFlight;
    ch.openTotal++;
    ch.openQueue.push(req, sc, ch.openTotal);
    if (ch.openTotal > this.maxOpenCalls) this.evictOldest(ch);
  }

  /** Over --max-open-calls: the channel's oldest open request becomes an orphan with reason `evicted`. */
  private evictOldest(ch: ChannelState): void {
    const first = ch.openQueue.shiftLive();
    if (!first) return;
    const { req, sc } = first;
    const open = sc.open!;
    this.removeOpen(ch, sc, req);
    // The shadows forget it too: an evicted call is gone from every view. A shadow never holds more
    // than the scope's open requests (without eviction that holds by construction), so it is trimmed
    // oldest-first when its own copy of this request was already taken.
    open.fifo.delete(req.seq);
    open.sigShadow.delete(req.seq);
    trimOldest(open.fifo, open.all.size);
    trimOldest(open.sigShadow, open.all.size);
    this.orphanRequest(ch, sc, req, 'evicted');
    this.maybeDropOpen(sc);
  }

  private interim(ch: ChannelState, sc: ScopeState, ev: CallEvent): void {
    this.bump(ch, sc, (c) => c.interims++);
    const open = sc.open;
    let target: OpenReq | undefined;
    if (open) {
      if (ev.id !== null) target = open.byId.get(ev.id)?.[0];
      else if (open.all.size === 1) target = open.all.values().next().value;
    }
    if (target) target.interims++;
    else this.bump(ch, sc, (c) => c.unattributedInterims++);
  }

  private removeOpen(ch: ChannelState, sc: ScopeState, req: OpenReq): void {
    const open = sc.open!;
    open.all.delete(req.seq);
    if (req.ev.id !== null) {
      const list = open.byId.get(req.ev.id);
      if (list) {
        const i = list.indexOf(req);
        if (i >= 0) list.splice(i, 1);
        if (list.length === 0) open.byId.delete(req.ev.id);
      }
    } else open.noId.delete(req.seq);
    ch.openTotal--;
  }

  private maybeDropOpen(sc: ScopeState): void {
    const o = sc.open;
    if (o && o.all.size === 0 && o.fifo.size === 0 && o.sigShadow.size === 0) sc.open = null;
  }

  private terminal(ch: ChannelState, sc: ScopeState, ev: CallEvent): PairRecord | null {
    this.bump(ch, sc, (c) => {
      c.terminals++;
      if (ev.id !== null) c.terminalsWithId++;
    });
    if (ev.redundant) {
      this.bump(ch, sc, (c) => c.redundant++);
      return null;
    }
    const open = sc.open;
    // Shadows first: they know no ids and see every non-redundant terminal.
    let fifoPartner: ShadowReq | null = null;
    let sigPartner: ShadowReq | null = null;
    const fifoInFlight = open ? open.fifo.size : 0;
    const sigInFlight = open ? open.sigShadow.size : 0;
    const inFlight = open ? open.all.size : 0;
    if (open) {
      const f = open.fifo.values().next();
      if (!f.done) {
        fifoPartner = f.value;
        open.fifo.delete(fifoPartner.seq);
      }
      sigPartner = pickShadow(open.sigShadow, ev.sig);
      if (sigPartner) open.sigShadow.delete(sigPartner.seq);
    }

    let taken: OpenReq | undefined;
    let method: Method = 'id';
    let confidence: Confidence = 'exact';
    let candidates = 1;
    if (open && ev.id !== null) {
      const list = open.byId.get(ev.id);
      if (list && list.length > 0) taken = list[0];
    }
    if (!taken && open) {
      const pool = ev.id !== null ? open.noId : open.all;
      if (pool.size > 0) {
        let firstMatch: OpenReq | undefined;
        let matches = 0;
        if (ev.sig) {
          for (const r of pool.values()) {
            if (sigMatch(ev.sig, r.ev.sig)) {
              if (!firstMatch) firstMatch = r;
              if (++matches > 1) break;
            }
          }
        }
        if (firstMatch) {
          method = 'signature';
          taken = firstMatch;
          candidates = matches;
        } else if (!ch.spec.signatureRequired) {
          method = 'fifo';
          taken = pool.values().next().value!;
          candidates = pool.size;
        }
        if (taken) {
          const oldest = open.all.values().next().value!;
          const orderedOk = ch.spec.ordered && taken === oldest && sigMatch(ev.sig, taken.ev.sig);
          confidence = candidates === 1 || orderedOk ? 'unambiguous' : 'ambiguous';
        }
      }
    }

    if (!taken) {
      if (ev.id !== null && ch.closed.has(closedKey(sc.scope, ev.id))) {
        this.bump(ch, sc, (c) => c.duplicateTerminals++);
        this.sink.finding(
          finding('DUPLICATE_TERMINAL', { channel: ch.spec.name, scope: sc.scope, locations: [ev.loc] }, { id: ev.id, caller: ev.caller }),
        );
      } else {
        this.bump(ch, sc, (c) => c.orphanResponses++);
        const reason: OrphanResponseRecord['reason'] = ev.id !== null ? 'id-not-open' : 'no-open-request';
        const rec: OrphanResponseRecord = { channel: ch.spec.name, scope: sc.scope, terminal: side(ev), reason };
        this.sink.orphanResponse?.(rec);
        this.sink.finding(
          finding(
            'ORPHAN_RESPONSE',
            { channel: ch.spec.name, scope: sc.scope, locations: [ev.loc] },
            { caller: ev.caller, reason, id: ev.id, kind: ev.attrs.kind, tool: ev.attrs.tool ?? null },
          ),
        );
      }
      this.maybeDropOpen(sc);
      if (this.sink.shadowPair) {
        this.shadowPair(ch, sc, 'fifo', ev, fifoPartner, fifoInFlight, null);
        this.shadowPair(ch, sc, 'signature', ev, sigPartner, sigInFlight, null);
      }
      return null;
    }

    this.removeOpen(ch, sc, taken);
    const req = taken.ev;
    // An id inherited from another pairing is no surer than that pairing.
    if (req.maxConfidence) confidence = weaker(confidence, req.maxConfidence);
    if (ev.maxConfidence) confidence = weaker(confidence, ev.maxConfidence);
    if (method === 'id') {
      this.rememberClosed(ch, sc.scope, ev.id!);
    } else if (req.id !== null) {
      this.rememberClosed(ch, sc.scope, req.id);
    }

    let latencyMs: number | null = null;
    if (req.time !== null && ev.time !== null) latencyMs = ev.time - req.time;

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

    const groupLabel = latencyGroup(req, ev);
    this.bump(ch, sc, (c) => {
      c.pairs++;
      c.byMethod[method]++;
      c.byConfidence[confidence]++;
      if (latencyMs !== null) {
        if (latencyMs < 0) c.negativeLatencies++;
        else c.latency.record(latencyMs, ev.loc);
      }
    });
    if (latencyMs !== null && latencyMs >= 0) {
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
      g.hist.record(latencyMs, ev.loc);
    }

    if (method === 'id') {
      this.bump(ch, sc, (c) => c.crossedComparable++);
      pair.fifoPartner = fifoPartner ? fifoPartner.loc : null;
      pair.signaturePartner = sigPartner ? sigPartner.loc : null;
      if (!fifoPartner || fifoPartner.seq !== taken.seq) {
        this.bump(ch, sc, (c) => c.crossedFifo++);
        this.crossed(ch, sc, 'fifo', ev, req, fifoPartner);
      }
      if (!sigPartner || sigPartner.seq !== taken.seq) {
        this.bump(ch, sc, (c) => c.crossedSignature++);
        this.crossed(ch, sc, 'signature', ev, req, sigPartner);
      }
    } else if (confidence === 'ambiguous') {
      this.sink.finding(
        finding(
          'AMBIGUOUS_PAIR',
          { channel: ch.spec.name, scope: sc.scope, locations: [ev.loc, req.loc] },
          { caller: req.caller, candidates, method },
        ),
      );
    }
    this.maybeDropOpen(sc);
    if (this.sink.shadowPair) {
      const byId = method === 'id';
      this.shadowPair(ch, sc, 'fifo', ev, fifoPartner, fifoInFlight, byId ? fifoPartner?.seq !== taken.seq : null);
      this.shadowPair(ch, sc, 'signature', ev, sigPartner, sigInFlight, byId ? sigPartner?.seq !== taken.seq : null);
    }
    this.sink.pair?.(pair);
    return pair;
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
    const locations = [ev.loc, req.loc];
    if (partner) locations.push(partner.loc);
    this.sink.finding(
      finding(
        'CROSSED_PAIR',
        { channel: ch.spec.name, scope: sc.scope, locations },
        { shadow, terminalCaller: ev.caller, trueCaller: req.caller, shadowCaller: partner ? partner.caller : null, id: ev.id! },
      ),
    );
  }

  private rememberClosed(ch: ChannelState, scope: string, id: string): void {
    const k = closedKey(scope, id);
    ch.closed.delete(k);
    ch.closed.set(k, true);
    if (ch.closed.size > this.closedWindow) {
      const oldest = ch.closed.keys().next();
      if (!oldest.done) ch.closed.delete(oldest.value);
    }
  }

  private orphanRequest(ch: ChannelState, sc: ScopeState, req: OpenReq, reason: 'end-of-input' | 'evicted'): void {
    const ev = req.ev;
    const ageMs = sc.lastTime !== null && ev.time !== null ? sc.lastTime - ev.time : null;
    this.bump(ch, sc, (c) => {
      c.orphanRequests++;
      if (reason === 'evicted') c.evicted++;
    });
    const rec: OrphanRequestRecord = { channel: ch.spec.name, scope: sc.scope, request: side(ev), reason, ageMs, interims: req.interims };
    this.sink.orphanRequest?.(rec);
    this.sink.finding(
      finding(
        'ORPHAN_REQUEST',
        { channel: ch.spec.name, scope: sc.scope, locations: [ev.loc] },
        ev.orphanNote !== undefined
          ? { caller: ev.caller, reason, ageMs, id: ev.id, note: ev.orphanNote, tool: ev.attrs.tool ?? null }
          : { caller: ev.caller, reason, ageMs, id: ev.id, tool: ev.attrs.tool ?? null },
      ),
    );
  }

  /** End of input: every open request is an orphan request, scope by scope in first-seen order. */
  finish(): void {
    for (const ch of this.channels.values()) {
      for (const sc of ch.scopes.values()) {
        const open = sc.open;
        if (!open) continue;
        for (const req of [...open.all.values()]) {
          this.removeOpen(ch, sc, req);
          this.orphanRequest(ch, sc, req, 'end-of-input');
        }
        sc.open = null;
      }
    }
  }
}

/**
 * The arrival order of a channel's open requests: a queue with lazy deletion (a closed request
 * stays until it reaches the head or the queue is compacted), so push and evict are amortised O(1)
 * — a Map used as a queue would rescan its deleted head entries on every eviction. Compacted when
 * stale entries outnumber live ones, so it holds at most about twice the open requests.
 */
export class OpenQueue {
  private items: Array<{ req: OpenReq; sc: ScopeState } | undefined> = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(req: OpenReq, sc: ScopeState, open: number): void {
    this.items.push({ req, sc });
    if (this.length > 2 * open + 1024) this.compact();
  }

  /** Removes and returns the oldest entry still open, or null. */
  shiftLive(): { req: OpenReq; sc: ScopeState } | null {
    while (this.head < this.items.length) {
      const it = this.items[this.head];
      this.items[this.head++] = undefined;
      if (this.head > 4096 && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      if (it && isOpen(it)) return it;
    }
    return null;
  }

  private compact(): void {
    const live: Array<{ req: OpenReq; sc: ScopeState }> = [];
    for (let i = this.head; i < this.items.length; i++) {
      const it = this.items[i];
      if (it && isOpen(it)) live.push(it);
    }
    this.items = live;
    this.head = 0;
  }
}

function isOpen(it: { req: OpenReq; sc: ScopeState }): boolean {
  return it.sc.open?.all.get(it.req.seq) === it.req;
}

function trimOldest(m: Map<number, ShadowReq>, max: number): void {
  while (m.size > max) {
    const k = m.keys().next();
    if (k.done) return;
    m.delete(k.value);
  }
}

function closedKey(scope: string, id: string): string {
  return `${scope}\u0000${id}`;
}

const RANK: Record<Confidence, number> = { exact: 0, unambiguous: 1, ambiguous: 2 };
function weaker(a: Confidence, b: Confidence): Confidence {
  return RANK[a] >= RANK[b] ? a : b;
}

/**
 * Field-wise signature match: every field known on both sides is equal, and at least one field
 * is known on both. A missing field on either side is a wildcard.
 */
export function sigMatch(a: readonly (string | null)[] | null, b: readonly (string | null)[] | null): boolean {
  if (!a || !b) return false;
  let shared = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x == null || y == null) continue;
    if (x !== y) return false;
    shared++;
  }
  return shared > 0;
}

function pickShadow(m: Map<number, ShadowReq>, sig: readonly (string | null)[] | null): ShadowReq | null {
  let first: ShadowReq | null = null;
  for (const r of m.values()) {
    if (!first) first = r;
    if (!sig) break;
    if (sigMatch(sig, r.sig)) return r;
  }
  return first;
}

function side(ev: CallEvent): CallSide {
  return { loc: ev.loc, time: ev.time, id: ev.id, caller: ev.caller, attrs: ev.attrs };
}

function mergedSignature(spec: ChannelSpec, req: CallEvent, term: CallEvent): Record<string, string | null> | null {
  if (spec.signatureFields.length === 0) return null;
  const out: Record<string, string | null> = Object.create(null);
  spec.signatureFields.forEach((name, i) => {
    out[name] = req.sig?.[i] ?? term.sig?.[i] ?? null;
  });
  return out;
}

function latencyGroup(req: CallEvent, term: CallEvent): [string | null, string | null] {
  if (req.attrs.tool != null || term.attrs.tool != null) return [req.attrs.tool ?? term.attrs.tool ?? null, null];
  return [req.attrs.provider ?? term.attrs.provider ?? null, req.attrs.model ?? term.attrs.model ?? null];
}
