/**
 * `callpair.compare.v1`: FIFO vs signature-FIFO vs id pairing, per channel and per scope, and what
 * each does to per-caller numbers (calls, errors, tokens, latency).
 *
 * Built from the one streaming pass of `analyze()`: the engine's real cascade (`onPair`, the `id`
 * strategy) and its two shadows (`onShadowPair`, the `fifo` and `signature` strategies). No second
 * pairing implementation. Memory: one small record per scope and per (channel, caller), latency
 * histograms of fixed precision; nothing grows with the number of calls.
 */
import { analyze, type AnalyzeOptions } from '../analyze.js';
import { LatencyHistogram, round3 } from '../stats/histogram.js';
import { attributionOf, channelMeaning, isFailed, type CallSide, type ChannelMeaning, type Loc, type PairRecord, type ShadowPairRecord, type Usage } from '../model.js';
import type { Report } from '../report/report.js';
import { VERSION } from '../version.js';

export const COMPARE_SCHEMA = 'callpair.compare.v1';

export type StrategyName = 'fifo' | 'signature' | 'id';
/** Display and row order. */
export const STRATEGIES: readonly StrategyName[] = ['fifo', 'signature', 'id'];

/** What one strategy concludes on one channel or scope. */
export interface StrategyCounts {
  pairs: number;
  orphanRequests: number;
  orphanResponses: number;
  /** Pairs whose terminal the id truth gives another request; null when there is no ground truth. */
  crossed: number | null;
  /** crossed / comparable; null without ground truth. */
  crossedRate: number | null;
  /** Pairs with no id truth (terminal not paired by id) closed while more than one call was in flight. */
  atRisk: number;
}

export interface CompareCounts {
  /** Some terminal was paired by id: crossed counts exist. */
  groundTruth: boolean;
  /** Terminals paired by id (the ground truth crossed is measured on). */
  comparable: number;
  requests: number;
  /** Non-redundant terminals (every one of them is seen by each strategy). */
  terminals: number;
  /** Redundant terminals (re-reports of a closed failure): left out of `terminals`, never paired; analyze's `terminals` = both. */
  redundant: number;
  maxInFlight: number;
  strategies: Record<StrategyName, StrategyCounts>;
}

export interface CompareScope extends CompareCounts {
  scope: string;
}

export interface Diff {
  /** strategy − id; null when either side is unknown. */
  abs: number | null;
  /** (strategy − id) / id in percent, 2 decimals; null when id is 0 or either side unknown. */
  pct: number | null;
}

export interface AttributionRow {
  /** amplifier: data.caller, else data.purpose, else main; other channels: the tool name, else the caller. */
  caller: string;
  strategy: StrategyName;
  calls: number;
  /** Calls whose terminal status is known and not `ok`. */
  errors: number;
  /** Sums over the calls whose value is known; null when no call's value is known (unknown is never 0). */
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  /** How many calls had each value unknown (left out of the sums above); latency: no or negative time. */
  unknown: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; latency: number };
  latencyMs: { mean: number | null; p50: number | null; p90: number | null };
  /** fifo and signature rows: the difference against the id row of the same caller. null on id rows. */
  vsId: {
    calls: Diff;
    errors: Diff;
    inputTokens: Diff;
    outputTokens: Diff;
    latencyMeanMs: Diff;
    latencyP50Ms: Diff;
    latencyP90Ms: Diff;
  } | null;
}

export interface CrossedExample {
  shadow: 'fifo' | 'signature';
  scope: string | null;
  terminal: Loc | null;
  trueRequest: Loc | null;
  shadowRequest: Loc | null;
  terminalCaller: string;
  trueCaller: string;
  shadowCaller: string | null;
}

export interface AtRiskExample {
  scope: string;
  terminal: Loc;
  request: Loc;
  caller: string;
  inFlight: number;
}

export interface CompareChannel extends CompareCounts {
  channel: string;
  /** The channel's declaration: rows, groups, failed outcomes. */
  meaning: ChannelMeaning;
  /** Pairs whose terminal failed (the report's count; the id rows' `errors` sum to it). */
  failed: number;
  /** First crossed pairs (FIFO and signature-FIFO), from the CROSSED_PAIR findings. */
  crossedExamples: CrossedExample[];
  /** First FIFO pairs at risk (no id truth, more than one call in flight). */
  atRiskExamples: AtRiskExample[];
  attribution: AttributionRow[];
  /** Attributions (calls × strategies) of callers beyond the `maxCallers` bound, folded into the caller `(other)`. */
  callsFolded: number;
  /** Requests evicted at --max-open-calls (analyze's channels[].evictedRequests): orphans of the bound. */
  evictedRequests: number;
  scopeCount: number;
  scopes: CompareScope[];
}

export interface CompareReport {
  schema: typeof COMPARE_SCHEMA;
  tool: { name: 'callpair'; version: string };
  totals: Report['totals'];
  channels: CompareChannel[];
}

export interface CompareOptions extends AnalyzeOptions {
  /** Distinct callers kept per channel; the rest are folded into `(other)` (default 10 000). */
  maxCallers?: number;
}

const EXAMPLES = 10;
/** Never used in practice: analyze declares every channel (`onChannels`) before any pair. */
const UNDECLARED: ChannelMeaning = { rowLabel: 'caller', attribution: 'caller', groupLabels: ['group'], failure: { kind: 'any', rules: [] }, idKind: 'correlation' };
export const OTHER_CALLER = '(other)';

/** The attribution key of one side of a call, as its channel declares it (`attributionOf`). */
export function attributionKey(meaning: Pick<ChannelMeaning, 'attribution'>, side: CallSide): string {
  return attributionOf(meaning, side);
}

/** An error is a terminal whose outcome failed under its channel's declaration (`isFailed`). */
export function isError(meaning: Pick<ChannelMeaning, 'failure'>, side: CallSide): boolean {
  return isFailed(meaning, side.attrs);
}

class Acc {
  calls = 0;
  errors = 0;
  tokens = [0, 0, 0, 0];
  known = [0, 0, 0, 0];
  latencyUnknown = 0;
  hist = new LatencyHistogram();

  add(meaning: ChannelMeaning, terminal: CallSide, latencyMs: number | null): void {
    this.calls++;
    if (isError(meaning, terminal)) this.errors++;
    const u: Usage | null | undefined = terminal.attrs.usage;
    const vals = u ? [u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens] : [null, null, null, null];
    for (let i = 0; i < 4; i++) {
      const v = vals[i];
      if (v !== null && v !== undefined && Number.isFinite(v)) {
        this.tokens[i]! += v;
        this.known[i]!++;
      }
    }
    if (latencyMs !== null && latencyMs >= 0 && Number.isFinite(latencyMs)) this.hist.record(latencyMs, null);
    else this.latencyUnknown++;
  }

  sum(i: number): number | null {
    return this.known[i]! === 0 ? null : this.tokens[i]!;
  }
}

function emptyStrategy(): StrategyCounts {
  return { pairs: 0, orphanRequests: 0, orphanResponses: 0, crossed: 0, crossedRate: null, atRisk: 0 };
}

class CountsAcc {
  comparable = 0;
  requests = 0;
  terminals = 0;
  maxInFlight = 0;
  s: Record<StrategyName, StrategyCounts> = { fifo: emptyStrategy(), signature: emptyStrategy(), id: emptyStrategy() };

  shadow(r: ShadowPairRecord): void {
    const st = this.s[r.shadow];
    if (r.shadow === 'fifo') this.terminals++;
    // Crossed as analyze counts it (docs/pairing.md): an id-paired terminal the strategy gives to
    // another request, or to none at all (it would leave it unpaired).
    if (r.crossed === true) st.crossed!++;
    if (r.request === null) st.orphanResponses++;
    else {
      st.pairs++;
      if (r.crossed === null && r.inFlight > 1) st.atRisk++;
    }
  }

  pair(p: PairRecord): void {
    const st = this.s.id;
    st.pairs++;
    if (p.method === 'id') this.comparable++;
    else if ((p.inFlight ?? 0) > 1) st.atRisk++;
  }

  /** Completes the counts with the engine's own (requests, orphans of the real cascade, maxInFlight). */
  finish(c: { requests: number; orphanRequests: number; orphanResponses: number; maxInFlight: number; redundant: number; terminals: number }): CompareCounts {
    this.requests = c.requests;
    this.maxInFlight = c.maxInFlight;
    const groundTruth = this.comparable > 0;
    const strategies = {} as Record<StrategyName, StrategyCounts>;
    for (const name of STRATEGIES) {
      const st = { ...this.s[name] };
      if (name === 'id') {
        st.orphanRequests = c.orphanRequests;
        st.orphanResponses = c.orphanResponses;
        st.crossed = 0;
      } else {
        // Evicted requests leave the shadows too: every request is a shadow pair or a shadow orphan.
        st.orphanRequests = c.requests - st.pairs;
      }
      if (!groundTruth) {
        st.crossed = null;
        st.crossedRate = null;
      } else st.crossedRate = Math.round((st.crossed! / this.comparable) * 1e6) / 1e6;
      strategies[name] = st;
    }
    return {
      groundTruth,
      comparable: this.comparable,
      requests: c.requests,
      terminals: this.terminals,
      redundant: c.redundant,
      maxInFlight: c.maxInFlight,
      strategies,
    };
  }
}

class ChannelAcc {
  counts = new CountsAcc();
  scopes = new Map<string, CountsAcc>();
  callers = new Map<string, Record<StrategyName, Acc>>();
  foldedCount = 0;
  atRisk: AtRiskExample[] = [];
  constructor(
    readonly channel: string,
    readonly meaning: ChannelMeaning,
    readonly maxCallers: number,
  ) {}

  scope(name: string): CountsAcc {
    let s = this.scopes.get(name);
    if (!s) this.scopes.set(name, (s = new CountsAcc()));
    return s;
  }

  acc(caller: string, strategy: StrategyName): Acc {
    let row = this.callers.get(caller);
    if (!row) {
      if (this.callers.size >= this.maxCallers) {
        this.foldedCount++;
        caller = OTHER_CALLER;
        row = this.callers.get(caller);
      }
      if (!row) this.callers.set(caller, (row = { fifo: new Acc(), signature: new Acc(), id: new Acc() }));
    }
    return row[strategy];
  }
}

function latency(req: CallSide, term: CallSide): number | null {
  return req.time !== null && term.time !== null ? term.time - req.time : null;
}

/** Runs the one pass and builds the `callpair.compare.v1` object. */
export async function compare(opts: CompareOptions): Promise<CompareReport> {
  return (await compareWithReport(opts)).compare;
}

/** As `compare()`, also returning the analyze report of the same pass. */
export async function compareWithReport(opts: CompareOptions): Promise<{ compare: CompareReport; report: Report }> {
  const maxCallers = opts.maxCallers ?? 10_000;
  const channels = new Map<string, ChannelAcc>();
  let specs = new Map<string, ChannelMeaning>();
  const meaningOf = (name: string): ChannelMeaning => specs.get(name) ?? UNDECLARED;
  const ch = (name: string) => {
    let c = channels.get(name);
    if (!c) channels.set(name, (c = new ChannelAcc(name, meaningOf(name), maxCallers)));
    return c;
  };
  const report = await analyze({
    ...opts,
    onChannels: (m) => {
      opts.onChannels?.(m);
      specs = new Map([...m].map(([k, v]) => [k, channelMeaning(v)]));
    },
    onPair: (p) => {
      opts.onPair?.(p);
      const c = ch(p.channel);
      c.counts.pair(p);
      c.scope(p.scope).pair(p);
      c.acc(attributionKey(c.meaning, p.request), 'id').add(c.meaning, p.terminal, p.latencyMs);
    },
    // Per-scope counts live as long as the engine holds the scope (its 50 000 cap), never longer.
    onScopeFolded: (channel, scope) => {
      opts.onScopeFolded?.(channel, scope);
      channels.get(channel)?.scopes.delete(scope);
    },
    onShadowPair: (r) => {
      opts.onShadowPair?.(r);
      const c = ch(r.channel);
      c.counts.shadow(r);
      c.scope(r.scope).shadow(r);
      if (r.request) {
        c.acc(attributionKey(c.meaning, r.request), r.shadow).add(c.meaning, r.terminal, latency(r.request, r.terminal));
        if (r.shadow === 'fifo' && r.crossed === null && r.inFlight > 1 && c.atRisk.length < EXAMPLES) {
          c.atRisk.push({ scope: r.scope, terminal: r.terminal.loc, request: r.request.loc, caller: attributionKey(c.meaning, r.request), inFlight: r.inFlight });
        }
      }
    },
  });

  const out: CompareChannel[] = [];
  for (const chr of report.channels) {
    const c = channels.get(chr.channel) ?? new ChannelAcc(chr.channel, chr.meaning, maxCallers);
    const counts = c.counts.finish(chr);
    const scopes: CompareScope[] = [];
    for (const sr of chr.scopes) {
      const sa = c.scopes.get(sr.scope) ?? new CountsAcc();
      scopes.push({ scope: sr.scope, ...sa.finish(sr) });
    }
    const crossedExamples: CrossedExample[] = [];
    for (const f of report.findings) {
      if (f.code !== 'CROSSED_PAIR' || f.channel !== chr.channel) continue;
      const d = f.data as { shadow: 'fifo' | 'signature'; terminalCaller: string; trueCaller: string; shadowCaller: string | null };
      if (crossedExamples.filter((x) => x.shadow === d.shadow).length >= EXAMPLES) continue;
      crossedExamples.push({
        shadow: d.shadow,
        scope: f.scope ?? null,
        terminal: f.locations[0] ?? null,
        trueRequest: f.locations[1] ?? null,
        shadowRequest: f.locations[2] ?? null,
        terminalCaller: d.terminalCaller,
        trueCaller: d.trueCaller,
        shadowCaller: d.shadowCaller,
      });
    }
    out.push({
      channel: chr.channel,
      meaning: chr.meaning,
      failed: chr.failed,
      ...counts,
      crossedExamples,
      atRiskExamples: c.atRisk,
      attribution: attributionRows(c),
      callsFolded: c.foldedCount,
      evictedRequests: chr.evictedRequests,
      scopeCount: scopes.length,
      scopes,
    });
  }
  return {
    compare: { schema: COMPARE_SCHEMA, tool: { name: 'callpair', version: VERSION }, totals: report.totals, channels: out },
    report,
  };
}

function diff(x: number | null, id: number | null): Diff {
  if (x === null || id === null) return { abs: null, pct: null };
  const abs = round3(x - id);
  return { abs, pct: id === 0 ? null : Math.round(((x - id) / id) * 10000) / 100 };
}

function row(caller: string, strategy: StrategyName, a: Acc): AttributionRow {
  return {
    caller,
    strategy,
    calls: a.calls,
    errors: a.errors,
    inputTokens: a.sum(0),
    outputTokens: a.sum(1),
    cacheReadTokens: a.sum(2),
    cacheWriteTokens: a.sum(3),
    unknown: {
      inputTokens: a.calls - a.known[0]!,
      outputTokens: a.calls - a.known[1]!,
      cacheReadTokens: a.calls - a.known[2]!,
      cacheWriteTokens: a.calls - a.known[3]!,
      latency: a.latencyUnknown,
    },
    latencyMs: { mean: a.hist.mean(), p50: a.hist.quantile(0.5), p90: a.hist.quantile(0.9) },
    vsId: null,
  };
}

function attributionRows(c: ChannelAcc): AttributionRow[] {
  const callers = [...c.callers.entries()];
  const weight = (r: Record<StrategyName, Acc>) => Math.max(r.fifo.calls, r.signature.calls, r.id.calls);
  callers.sort((a, b) => weight(b[1]) - weight(a[1]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const rows: AttributionRow[] = [];
  for (const [caller, accs] of callers) {
    const idRow = row(caller, 'id', accs.id);
    for (const s of STRATEGIES) {
      if (s === 'id') {
        rows.push(idRow);
        continue;
      }
      const r = row(caller, s, accs[s]);
      r.vsId = {
        calls: diff(r.calls, idRow.calls),
        errors: diff(r.errors, idRow.errors),
        inputTokens: diff(r.inputTokens, idRow.inputTokens),
        outputTokens: diff(r.outputTokens, idRow.outputTokens),
        latencyMeanMs: diff(r.latencyMs.mean, idRow.latencyMs.mean),
        latencyP50Ms: diff(r.latencyMs.p50, idRow.latencyMs.p50),
        latencyP90Ms: diff(r.latencyMs.p90, idRow.latencyMs.p90),
      };
      rows.push(r);
    }
  }
  return rows;
}
