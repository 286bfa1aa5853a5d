/**
 * `callpair merge`: combines `callpair.report.v1` reports of shards that split the inputs by scope
 * into the report one run over all the inputs would give (docs/scale-out.md). Every step is a
 * commutative, associative fold — counts add, maxima take the max, latency sketches merge, capped
 * lists keep the first N in a total order — so any grouping and order of shards gives the same
 * bytes. Reports are folded one at a time; memory holds the merged report, not the shards.
 */
import { gateOptionsOf } from '../analyze.js';
import { DEFAULT_MAX_HELD_SCOPES } from '../engine/engine.js';
import { zeroCounts, type CountersSnapshot as Counters } from '../model/snapshot.js';
import { counterTrouble, worstFirst } from '../report/worst-scopes.js';
import type { LatencySketch } from '../stats/histogram.js';
import { ALL_CODES, comparePaths, finding, firstFindings, FINDING_CODES, isFindingCode, SEVERITY_RANK, type Finding, type FindingCode } from '../report/findings.js';
import { evaluateGate } from '../report/gate.js';
import { findingMessage } from '../report/messages.js';
import {
  compareGroups,
  counterReport,
  inputTotals,
  REPORT_SCHEMA,
  type ChannelReport,
  type CounterReport,
  type InputLedgerReport,
  type LatencyGroupReport,
  type MergeDataReport,
  type Report,
  type ScopeReport,
} from '../report/report.js';
import type { LatencyStats } from '../stats/histogram.js';
import { compareLocs, mergeSketches, sketchStats } from './sketch.js';
import { append } from '../arrays.js';
import { evictedNote, isEvictedNote, isZeroLatencyNote, zeroLatencyNote } from '../report/notes.js';

/** A report that cannot be merged with the others (one line; the CLI exits 2). */
export class MergeRefusal extends Error {
  override name = 'MergeRefusal';
}

interface ChannelAcc {
  ordered: boolean;
  meaning: ChannelReport['meaning'];
  failed: number;
  counters: Counters;
  latency: LatencySketch | null;
  groups: Map<string, { group: string | null; subgroup: string | null; sketch: LatencySketch }>;
  scopeCount: number;
  /** Scopes the shards hold but do not list (scopesOmitted, scopesFolded): a split scope among them goes unseen. */
  unlisted: number;
  /** The shards' unsureOrphans, summed. */
  unsureOrphans: number;
  /** The shards' unsureRepeats, summed. */
  unsureRepeats: number;
  /** Listed scopes by name, with how many shard reports listed each (> 1: a split scope). */
  scopes: Map<string, { report: ScopeReport; reports: number }>;
}

export class ReportMerger {
  private first: { label: string; tool: Report['tool']; run: Report['run'] } | null = null;
  private readonly inputs: InputLedgerReport[] = [];
  private readonly channels = new Map<string, ChannelAcc>();
  private readonly findings = new Map<FindingCode, Finding[]>();
  private readonly counts = new Map<FindingCode, number>();
  /** SPLIT_SCOPE findings the inputs already carry (merges of merges): channel\0scope → reports. */
  private readonly splitIn = new Map<string, { reports: number; inputs: number }>();
  private readonly notes = new Set<string>();
  /** The shards' IDS_NEVER_MATCH by channel: whether an id ever paired is a property of the whole run (recomputed). */
  private readonly neverMatch = new Map<string, Array<Extract<Finding, { code: 'IDS_NEVER_MATCH' }>>>();
  private readonly records = new Map<string, Record<string, number>>();
  /** The profile a shard's NO_CALL_EVENTS named (the finding is a property of the whole run: recomputed). */
  private emptyProfile: string | null = null;
  private max = 0;
  count = 0;

  /** Folds one report in. `label` names it in a refusal (its file). */
  add(r: Report, label: string): void {
    this.check(r, label);
    this.count++;
    append(this.inputs, r.inputs); // not push(...): a shard may list more inputs than a call takes arguments
    // The merge's own notes are recomputed from the merged counts (associative: a merge of merges says the same).
    for (const n of r.notes) if (!n.startsWith(MERGE_NOTE_PREFIX) && !isZeroLatencyNote(n) && !isEvictedNote(n)) this.notes.add(n);
    for (const [name, section] of Object.entries(r.records ?? {})) {
      let sum = this.records.get(name);
      if (!sum) this.records.set(name, (sum = {}));
      for (const [k, v] of Object.entries(section as Record<string, number>)) sum[k] = (sum[k] ?? 0) + v;
    }
    const data = new Map(r.mergeData.channels.map((d) => [d.channel, d] as const));
    for (const ch of r.channels) this.addChannel(ch, data.get(ch.channel), label);
    for (const [code, n] of Object.entries(r.findingCounts)) {
      if (!isFindingCode(code) || code === 'SPLIT_SCOPE' || code === 'NO_CALL_EVENTS' || code === 'IDS_NEVER_MATCH') continue;
      this.counts.set(code, (this.counts.get(code) ?? 0) + (n ?? 0));
    }
    for (const f of r.findings) {
      if (f.code === 'NO_CALL_EVENTS') {
        this.emptyProfile ??= f.data.profile;
        continue;
      }
      if (f.code === 'IDS_NEVER_MATCH') {
        const k = f.channel ?? '';
        const list = this.neverMatch.get(k) ?? [];
        list.push(f);
        this.neverMatch.set(k, list);
        continue;
      }
      if (f.code === 'SPLIT_SCOPE') {
        const k = `${f.channel ?? ''}\u0000${f.scope ?? ''}`;
        const cur = this.splitIn.get(k) ?? { reports: 0, inputs: 0 };
        cur.reports += f.data.reports;
        cur.inputs++;
        this.splitIn.set(k, cur);
        continue;
      }
      let list = this.findings.get(f.code);
      if (!list) this.findings.set(f.code, (list = []));
      list.push(f);
      if (list.length >= 2 * this.max + 64) firstFindings(list, this.max);
    }
  }

  private check(r: Report, label: string): void {
    if (r === null || typeof r !== 'object' || r.schema !== REPORT_SCHEMA) throw new MergeRefusal(`${label} is not a ${REPORT_SCHEMA} report`);
    if (!r.run || !r.mergeData) throw new MergeRefusal(`${label} carries no merge data (made by an older callpair; analyze again)`);
    for (const [name, section] of Object.entries(r.records ?? {})) {
      // Counters (custom, jsonrpc, openai-batch) add up over scope-disjoint shards; the Assay audit
      // (a matrix over caller, decision and upstream files) does not.
      if (!isCounters(section)) throw new MergeRefusal(`${label} holds ${name} records, whose audit spans files: such reports do not merge`);
    }
    if (!this.first) {
      this.first = { label, tool: r.tool, run: r.run };
      this.max = r.run.maxFindings;
      return;
    }
    const f = this.first;
    if (r.tool.version !== f.tool.version)
      throw new MergeRefusal(`${label} was made by callpair ${r.tool.version}, ${f.label} by ${f.tool.version}: reports of different versions do not merge`);
    if (r.run.profile !== f.run.profile)
      throw new MergeRefusal(`${label} was made with profile ${JSON.stringify(r.run.profile)}, ${f.label} with ${JSON.stringify(f.run.profile)}: reports of different profiles do not merge`);
    if (JSON.stringify(r.run) !== JSON.stringify(f.run)) {
      const diff = (Object.keys(f.run) as Array<keyof Report['run']>).find((k) => JSON.stringify(r.run[k]) !== JSON.stringify(f.run[k])) ?? 'run';
      throw new MergeRefusal(`${label} and ${f.label} were made with different ${diff} options: reports of different options do not merge`);
    }
  }

  private addChannel(ch: ChannelReport, data: MergeDataReport['channels'][number] | undefined, label: string): void {
    if (!data) throw new MergeRefusal(`${label}: channel ${JSON.stringify(ch.channel)} has no merge data`);
    let acc = this.channels.get(ch.channel);
    if (!acc) {
      acc = { ordered: ch.ordered, meaning: ch.meaning, failed: 0, counters: newCounters(), latency: null, groups: new Map(), scopeCount: 0, unlisted: 0, unsureOrphans: 0, unsureRepeats: 0, scopes: new Map() };
      this.channels.set(ch.channel, acc);
    }
    addCounts(acc.counters, ch, data.requestsWithId, data.terminalsWithId);
    acc.failed += ch.failed;
    acc.latency = mergeSketches(acc.latency, data.latency);
    ch.latencyByGroup.forEach((g, i) => {
      const key = `${g.group ?? ''}\u0000${g.subgroup ?? ''}`; // the engine's group key
      const sketch = data.groups[i];
      if (!sketch) throw new MergeRefusal(`${label}: channel ${JSON.stringify(ch.channel)} has a latency group without its sketch`);
      const cur = acc.groups.get(key);
      if (cur) cur.sketch = mergeSketches(cur.sketch, sketch)!;
      else acc.groups.set(key, { group: g.group, subgroup: g.subgroup, sketch });
    });
    acc.scopeCount += ch.scopeCount;
    acc.unlisted += (ch.scopesOmitted ?? 0) + (ch.scopesFolded ?? 0);
    acc.unsureOrphans += ch.unsureOrphans ?? 0;
    acc.unsureRepeats += ch.unsureRepeats ?? 0;
    for (const s of ch.scopes) {
      const cur = acc.scopes.get(s.scope);
      if (!cur) acc.scopes.set(s.scope, { report: s, reports: 1 });
      else {
        // A scope listed by two shards: its calls were paired apart. Counted once, flagged.
        acc.scopeCount--;
        cur.report = mergeScope(cur.report, s, acc.meaning);
        cur.reports++;
      }
    }
  }

  finish(): Report {
    if (!this.first) throw new MergeRefusal('no report to merge');
    const run = this.first.run;
    const order = new Map(run.channels.map((c, i) => [c, i] as const));
    const names = [...this.channels.keys()].sort((a, b) => (order.get(a) ?? 1e9) - (order.get(b) ?? 1e9) || (a < b ? -1 : a > b ? 1 : 0));

    // How many shard reports hold each split scope: what merged inputs said, plus one per other listing.
    const split = new Map([...this.splitIn].map(([k, v]) => [k, v.reports] as const));
    const channels: ChannelReport[] = [];
    const mergeData: MergeDataReport = { channels: [] };
    for (const name of names) {
      const acc = this.channels.get(name)!;
      acc.counters.latency = sketchStats(acc.latency);
      let listed = [...acc.scopes.values()];
      for (const s of listed) {
        const k = `${name}\u0000${s.report.scope}`;
        const carried = this.splitIn.get(k);
        if (carried) split.set(k, carried.reports + s.reports - carried.inputs);
        else if (s.reports > 1) split.set(k, s.reports);
      }
      // One run holds at most this many scopes per channel and folds the longest idle past it
      // (SCOPES_FOLDED); the merge lists them all, so past it the merge is not that run (docs/scale-out.md).
      const cap = Math.max(DEFAULT_MAX_HELD_SCOPES, run.maxScopes ?? 0);
      if (acc.scopeCount > cap) this.notes.add(scopeCapNote(name, acc.scopeCount, cap));
      if (acc.unlisted > 0) this.notes.add(unlistedScopesNote(name));
      let omitted = 0;
      if (run.maxScopes !== null && acc.scopeCount > run.maxScopes) {
        // The single run's ranking (src/report/worst-scopes.ts): the top N of all shards is among their tops.
        omitted = acc.scopeCount - run.maxScopes;
        listed = worstFirst(listed, (x) => counterTrouble(x.report), (x) => [x.report.scope]).slice(0, run.maxScopes);
      }
      const scopes = listed.map((s) => s.report).sort(byName);
      const groups = [...acc.groups.values()].map((g) => ({ r: { group: g.group, subgroup: g.subgroup, ...sketchStats(g.sketch)! } as LatencyGroupReport, sketch: g.sketch }));
      groups.sort((a, b) => compareGroups(a.r, b.r));
      channels.push({
        channel: name,
        ordered: acc.ordered,
        meaning: acc.meaning,
        ...counterReport(acc.counters, acc.meaning),
        failed: acc.failed,
        scopeCount: acc.scopeCount,
        ...(omitted > 0 ? { scopesOmitted: omitted } : {}),
        ...(acc.unsureOrphans > 0 ? { unsureOrphans: acc.unsureOrphans } : {}),
        ...(acc.unsureRepeats > 0 ? { unsureRepeats: acc.unsureRepeats } : {}),
        latencyByGroup: groups.map((g) => g.r),
        scopes,
      });
      if (acc.counters.zeroLatencies > 0) this.notes.add(zeroLatencyNote(name, acc.counters.zeroLatencies));
      if (acc.counters.evicted > 0) this.notes.add(evictedNote(name, acc.counters.evicted, run.maxOpenCalls));
      mergeData.channels.push({
        channel: name,
        requestsWithId: acc.counters.requestsWithId,
        terminalsWithId: acc.counters.terminalsWithId,
        latency: acc.latency,
        groups: groups.map((g) => g.sketch),
      });
    }

    const splitList: Finding[] = [];
    for (const [k, reports] of split) {
      const at = k.indexOf('\u0000');
      splitList.push(finding('SPLIT_SCOPE', { channel: k.slice(0, at), scope: k.slice(at + 1), locations: [] }, { reports }));
    }
    if (splitList.length > 0) {
      this.counts.set('SPLIT_SCOPE', splitList.length);
      this.findings.set('SPLIT_SCOPE', splitList);
    }

    // IDS_NEVER_MATCH is about the whole run: it holds only if no shard paired by id.
    const never = neverMatchOf(this.neverMatch, channels);
    if (never.length > 0) {
      this.findings.set('IDS_NEVER_MATCH', never);
      this.counts.set('IDS_NEVER_MATCH', never.length);
    }

    // NO_CALL_EVENTS is about the whole run: nothing in any shard.
    const events = channels.reduce((n, c) => n + c.requests + c.terminals + c.interims, 0);
    const used = this.inputs.reduce((n, i) => n + i.used, 0);
    if (events === 0 && used === 0 && !run.allowEmpty) {
      const records = this.inputs.reduce((n, i) => n + i.records, 0);
      const reason = this.inputs.length === 0 ? 'no-inputs' : 'nothing-matched';
      this.findings.set('NO_CALL_EVENTS', [finding('NO_CALL_EVENTS', { locations: [] }, { reason, inputs: this.inputs.length, records, profile: this.emptyProfile ?? run.profile })]);
      this.counts.set('NO_CALL_EVENTS', 1);
    }

    const codes = ALL_CODES.filter((c) => this.findings.has(c)).sort(
      (a, b) => SEVERITY_RANK[FINDING_CODES[a]] - SEVERITY_RANK[FINDING_CODES[b]] || ALL_CODES.indexOf(a) - ALL_CODES.indexOf(b),
    );
    const findings: Finding[] = [];
    for (const c of codes) for (const f of firstFindings(this.findings.get(c)!, this.max)) findings.push(f.message === '' ? ({ ...f, message: findingMessage(f) } as Finding) : f);
    const findingCounts: Report['findingCounts'] = {};
    const findingsOmitted: Report['findingsOmitted'] = {};
    for (const c of ALL_CODES) {
      const n = this.counts.get(c);
      if (!n) continue;
      findingCounts[c] = n;
      if (n > this.max) findingsOmitted[c] = n - this.max;
    }

    const inputs = this.inputs.sort((a, b) => comparePaths(a.path, b.path) || cmpJson(a, b));
    const totals = inputTotals(inputs);
    return {
      schema: REPORT_SCHEMA,
      tool: this.first.tool,
      run,
      inputs,
      totals,
      channels,
      // In the profiles' order, as one run writes them; a section only when some shard had one.
      records: Object.fromEntries((run.profiles ?? []).flatMap((p) => (this.records.has(p) ? [[p, this.records.get(p)!]] : []))),
      notes: [...this.notes].sort(),
      findings,
      findingCounts,
      findingsOmitted,
      gate: evaluateGate(gateOptionsOf(run.gate), findingCounts, channels),
      mergeData,
    };
  }
}

/** Notes the merge writes itself start so (any such note in an input is dropped and recomputed). */
export const MERGE_NOTE_PREFIX = 'merge: channel ';

/** Shards that do not list every scope (`--max-scopes`, folded scopes): a split scope may go unseen. */
export function unlistedScopesNote(channel: string): string {
  return `${MERGE_NOTE_PREFIX}${channel}: some scopes of the merged reports are not listed (--max-scopes, or folded in a shard): a scope split across shards is found (SPLIT_SCOPE) only where every report holding it lists it, so this merged report may differ from one run over the same inputs without saying where (docs/scale-out.md, limits of exactness)`;
}

/** The note of a channel whose merged scopes exceed what one run holds (docs/scale-out.md, "Limits of exactness"). */
export function scopeCapNote(channel: string, scopes: number, cap: number): string {
  return `${MERGE_NOTE_PREFIX}${channel} has ${scopes} scopes over all shards, more than the ${cap} one run holds: one run over the same inputs would fold the longest idle into the channel's totals (SCOPES_FOLDED), so this merged report differs from it, and a scope split across shards is found only where the shards list it (docs/scale-out.md, limits of exactness)`;
}

/** Merges reports (library form of `callpair merge`). */
export function mergeReports(reports: Iterable<Report>): Report {
  const m = new ReportMerger();
  let i = 0;
  for (const r of reports) m.add(r, `report ${++i}`);
  return m.finish();
}

const byName = (a: { scope: string }, b: { scope: string }) => (a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : 0);

function cmpJson(a: unknown, b: unknown): number {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A `records` section made of counts only (whole numbers), which shards add up. */
function isCounters(section: unknown): section is Record<string, number> {
  return section !== null && typeof section === 'object' && !Array.isArray(section) && Object.values(section).every((v) => Number.isSafeInteger(v));
}

function newCounters(): Counters {
  return { ...zeroCounts(), latency: null };
}

/** Rates are rounded to 1e-6: the count behind one is exact while its denominator is under 500 000. */
const unrate = (rate: number | null, n: number) => (rate === null ? 0 : Math.round(rate * n));

function addCounts(c: Counters, r: CounterReport, requestsWithId: number, terminalsWithId: number): void {
  c.requests += r.requests;
  c.terminals += r.terminals;
  c.interims += r.interims;
  c.unattributedInterims += r.unattributedInterims;
  c.redundant += r.redundant;
  c.pairs += r.pairs.total;
  c.byMethod.id += r.pairs.byMethod.id;
  c.byMethod.signature += r.pairs.byMethod.signature;
  c.byMethod.fifo += r.pairs.byMethod.fifo;
  c.byMethod.record += r.pairs.byMethod.record ?? 0;
  c.byConfidence.exact += r.pairs.byConfidence.exact;
  c.byConfidence.unambiguous += r.pairs.byConfidence.unambiguous;
  c.byConfidence.ambiguous += r.pairs.byConfidence.ambiguous;
  c.orphanRequests += r.orphanRequests;
  c.evicted += r.evictedRequests;
  c.orphanResponses += r.orphanResponses;
  c.duplicateTerminals += r.duplicateTerminals;
  c.duplicateIds += r.duplicateIds;
  c.crossedComparable += r.crossed.comparable;
  c.crossedFifo += r.crossed.fifo;
  c.crossedSignature += r.crossed.signature;
  c.requestsWithId += requestsWithId;
  c.terminalsWithId += terminalsWithId;
  if (r.maxInFlight > c.maxInFlight) c.maxInFlight = r.maxInFlight;
  c.negativeLatencies += r.negativeLatencies;
  c.zeroLatencies += r.zeroLatencies ?? 0;
}

/**
 * One scope listed by two shards (a SPLIT_SCOPE): counts add; the latency percentiles of the two
 * halves cannot be combined (scopes carry no sketch) and are left unknown.
 */
function mergeScope(a: ScopeReport, b: ScopeReport, meaning: ChannelReport['meaning']): ScopeReport {
  const c = newCounters();
  addCounts(c, a, unrate(a.idCoverage.requests, a.requests), unrate(a.idCoverage.terminals, a.terminals));
  addCounts(c, b, unrate(b.idCoverage.requests, b.requests), unrate(b.idCoverage.terminals, b.terminals));
  return { scope: a.scope, ...counterReport(c, meaning), latencyMs: mergeStats(a.latencyMs, b.latencyMs) };
}

/**
 * A split scope's latency (docs/scale-out.md, "Split scopes"): count, min and max of both listings,
 * percentiles unknown — also when one listing has none, since a single run would have paired the
 * calls that crossed the shard boundary, whose latencies neither shard holds.
 */
function mergeStats(a: LatencyStats | null, b: LatencyStats | null): LatencyStats | null {
  if (a === null || b === null) {
    const one = a ?? b;
    return one === null ? null : { ...one, p50: null, p90: null, p99: null };
  }
  const lowFirst = a.min < b.min || (a.min === b.min && compareLocs(a.minAt, b.minAt) <= 0);
  const highFirst = a.max > b.max || (a.max === b.max && compareLocs(a.maxAt, b.maxAt) <= 0);
  return {
    count: a.count + b.count,
    min: lowFirst ? a.min : b.min,
    p50: null,
    p90: null,
    p99: null,
    max: highFirst ? a.max : b.max,
    minAt: lowFirst ? a.minAt : b.minAt,
    maxAt: highFirst ? a.maxAt : b.maxAt,
  };
}

/**
 * IDS_NEVER_MATCH over merged shards: a channel keeps it only when the merged channel has requests,
 * terminals and not one pair by id (then every shard that saw both sides reported it). Its counts
 * are the sums over the shards that reported it, the reason is decided again from them, and the
 * location is the first of theirs: the same whatever the shard order.
 */
function neverMatchOf(byChannel: ReadonlyMap<string, Array<Extract<Finding, { code: 'IDS_NEVER_MATCH' }>>>, channels: readonly ChannelReport[]): Finding[] {
  const out: Finding[] = [];
  for (const ch of channels) {
    const list = byChannel.get(ch.channel);
    if (!list || ch.requests === 0 || ch.terminals === 0 || ch.pairs.byMethod.id > 0) continue;
    const q = list.reduce((n, f) => n + f.data.requestsWithId, 0);
    const t = list.reduce((n, f) => n + f.data.terminalsWithId, 0);
    const fields = [...new Set(list.flatMap((f) => f.data.field.split(', ')))].sort();
    const locs = list.flatMap((f) => f.locations).sort(compareLocs);
    const reason = q > 0 && t > 0 ? 'never-match' : 'missing';
    const side = reason === 'never-match' || (q === 0 && t === 0) ? 'both' : q === 0 ? 'requests' : 'terminals';
    out.push(finding('IDS_NEVER_MATCH', { channel: ch.channel, locations: locs.slice(0, 1) }, { reason, side, field: fields.join(', '), requestsWithId: q, terminalsWithId: t }));
  }
  return out;
}
