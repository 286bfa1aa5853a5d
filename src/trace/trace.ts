/**
 * `trace`: one call explained (docs/trace.md). Listens to the one streaming pass of `analyze()` and
 * keeps, for the calls that match the target (a correlation id, or a `path:line` of any of their
 * events), the request, interims and terminal, how the cascade paired them and among which open
 * requests, what the FIFO and signature-FIFO shadows would have given the terminal, and the
 * findings that name the call. State: the open requests (as the engine holds them) and the matches.
 */
import path from 'node:path';
import { analyze, type AnalyzeOptions } from '../analyze.js';
import { shownId, type CallEvent, type CallSide, type ChannelSpec, type Confidence, type Loc, type Method, type OrphanResponseRecord, type ShadowPairRecord } from '../model.js';
import type { Finding } from '../report/findings.js';
import { findingMessage } from '../report/messages.js';
import { checkCorrelationId } from '../profiles/ids.js';
import { transcriptBlockIds } from '../profiles/transcript.js';
import { InputUsageError } from '../input/sources.js';
import { displayArg } from '../formatters/safe.js';
import { VERSION } from '../version.js';
import { pointerLines } from '../input/documents.js';
import type { LineProbe, ProbedRecord } from '../pass/options.js';

export const TRACE_SCHEMA = 'callpair.trace.v1';

/**
 * What to trace: a correlation id, or one line of a capture; `pointer`: one record of those the
 * line holds (a HAR entry, a custom `records` path), by its JSON pointer.
 */
export type TraceTarget = { kind: 'id'; id: string } | { kind: 'location'; path: string; line: number; pointer?: string };

export interface TraceEvent {
  loc: Loc;
  /** Milliseconds since the Unix epoch, null when the record has no time. */
  time: number | null;
  /** ISO 8601 form of `time`. */
  at: string | null;
  caller: string;
  /** The event's own correlation id as shown (docs/pairing.md, "How ids are shown"), null when it has none shown. */
  id: string | null;
  kind: string | null;
  status: string | null;
}

export interface TraceOpen {
  loc: Loc;
  caller: string;
  id: string | null;
  /** This is the request the cascade took. */
  taken: boolean;
}

export interface TraceShadow {
  /** The request the shadow would have given the terminal, null when it had nothing open. */
  request: (Loc & { caller: string }) | null;
  /** The shadow's pick is not the true request (only known when the call is paired by id). */
  crossed: boolean | null;
}

export interface TraceCall {
  channel: string;
  scope: string;
  id: string | null;
  /** `paired`, `orphan-request` (never closed), `orphan-response` (nothing could take it), `duplicate-terminal`. */
  outcome: 'paired' | 'orphan-request' | 'orphan-response' | 'duplicate-terminal';
  request: TraceEvent | null;
  interims: TraceEvent[];
  terminal: TraceEvent | null;
  latencyMs: number | null;
  method: Method | null;
  confidence: Confidence | null;
  /** The cascade step in words (which rule took the request, or why nothing could). */
  why: string;
  /**
   * The requests open in the scope when the terminal arrived (what the cascade chose among); empty
   * for a whole-record call (`method` `record`), which is paired by no order: `fifo` and
   * `signature` are null then too.
   */
  open: TraceOpen[];
  /** Open requests beyond `open` (the list is capped). */
  openOmitted: number;
  fifo: TraceShadow | null;
  signature: TraceShadow | null;
  /**
   * `arbitrary`: the channel's terminal order is arbitrary by contract (OpenAI Batch output), so
   * what FIFO would take means nothing (`fifo` and `signature` are still given). Absent otherwise.
   */
  terminalOrder?: 'arbitrary';
  findings: { code: string; severity: string; message: string; locations: Loc[] }[];
}

export interface TraceReport {
  schema: typeof TRACE_SCHEMA;
  tool: { name: 'callpair'; version: string };
  target: TraceTarget;
  calls: TraceCall[];
  /** Calls matched beyond `calls` (an id reused many times). */
  callsOmitted: number;
  /** A `path:line` target no call holds: what that line is (absent when a call was found, or the target is an id). */
  line?: TraceLine;
  /**
   * A `path:line` target inside a multi-line JSON document record that is not the record's first
   * line: the record whose lines hold it (`line`, and `pointer` for a record inside a document
   * record, e.g. `/log/entries/2`), traced as `PATH:LINE#POINTER` is; `document`: the first line of
   * the document record (absent for an element of a document read element by element, over
   * `--max-line-bytes`). Absent otherwise.
   */
  within?: { line: number; pointer?: string; document?: number };
}

/**
 * What a traced line is when it holds no call event, as the pass read it (the report's counts):
 * `read` (a record parsed and read by the profiles, no call: `kind` names it, e.g. `event
 * "tool:pre"`; `outcome` `ignored`, counted in `ignored`, or `used`/`duplicate`), `blank`,
 * `malformed` (the pass reported it: `reason` is the MALFORMED_LINE reason, or `oversized`),
 * `unparsed` (no profile's needle or kind key is on it: skipped without JSON.parse, counted in
 * `ignored` and `unparsed`; `kind` names it when it is JSON, null when not: `--validate-all`
 * reports that as MALFORMED_LINE), `document` (a line of a JSON document that holds no call: `record`,
 * the document record whose lines hold it or that starts on it, with its `outcome`; null when the
 * line is in no record read whole: the document's brackets and separators, or a line inside an
 * element of a document read element by element), or `absent` (the file has fewer lines; `lines`
 * says how many). `profile`: the profile(s) that read the input, or the `--profile` given when none
 * used a record of it. `pointer`: a `PATH:LINE#POINTER` target whose line holds call events at
 * other pointers only (`pointers`: the first 20 of them), or at the line itself, with no pointer
 * (`pointers` empty: a JSONL line is one record, traced as `PATH:LINE`). A pointer target on a
 * line with no call event is described as the line is.
 */
export interface TraceLine {
  state: 'read' | 'blank' | 'malformed' | 'unparsed' | 'document' | 'absent' | 'pointer' | 'repeat';
  kind: string | null;
  profile: string | null;
  outcome?: ProbedRecord['outcome'];
  reason?: string;
  lines?: number;
  pointers?: string[];
  record?: { line: number; end: number } | null;
  /** `repeat`: a transcript line whose tool calls and results were all read before (the first 20 ids that have a display form). */
  repeats?: string[];
}

export interface TraceOptions extends AnalyzeOptions {
  target: TraceTarget;
  /** Calls kept (default 20). */
  maxCalls?: number;
}

const MAX_OPEN_LISTED = 20;
const MAX_INTERIMS = 50;

/**
 * Reads `ID|PATH:LINE[#POINTER]`: a location when it ends in `:N` (or `:N#/json/pointer`, the form
 * the table shows for a record that has one) and its path is a file (or one of the inputs); otherwise an id, which must pass the safe-shape rule (an invalid id is never echoed:
 * look such a call up by the line it is on). A location's line counts from 1 (docs/trace.md): a
 * path followed by anything else than a line from 1 to 2^53 - 1 (`:0`, `:99999999999999999999`,
 * `:-1`, `:x`) is a usage error that echoes the target, escaped.
 */
export function parseTarget(text: string, inputs: readonly string[], exists: (p: string) => boolean): TraceTarget {
  const isPath = (p: string) => p !== '' && (exists(p) || inputs.some((i) => path.resolve(i) === path.resolve(p)));
  for (const m of [/^(.+?):(\d+)#(\/.*)$/.exec(text), /^(.+):(\d+)$/.exec(text)]) {
    if (!m) continue;
    const p = m[1]!;
    if (isPath(p)) return { kind: 'location', path: p, line: lineNumber(text, m[2]!), ...(m[3] !== undefined ? { pointer: m[3] } : {}) };
  }
  // A path and a colon, then no line number: meant as a location, not an id.
  for (let i = text.indexOf(':'); i !== -1; i = text.indexOf(':', i + 1)) {
    if (isPath(text.slice(0, i))) throw badLocation(text, `"${displayArg(text.slice(i + 1))}" is not a line number`);
  }
  // A JSON-RPC string id as it is shown (docs/pairing.md, "How ids are shown"): `"9"`.
  if (/^"[A-Za-z0-9_.:-]{1,128}"$/.test(text)) return { kind: 'id', id: text };
  // An invalid id follows the id rule (docs/guarantees.md): never echoed, only its reason, length and hash.
  const c = checkCorrelationId('ID', text);
  if (c.kind !== 'valid') {
    const why = c.kind === 'invalid' ? ` (${c.info.reason}, length ${c.info.length}, sha256 ${c.info.sha256})` : ' (empty)';
    throw new InputUsageError(`trace: ID is neither an existing PATH:LINE nor a valid correlation id${why}; look the call up by PATH:LINE`);
  }
  return { kind: 'id', id: text };
}

const LINE_RULE = `give PATH:LINE or PATH:LINE#/json/pointer, LINE a whole number from 1 to ${Number.MAX_SAFE_INTEGER}`;

function badLocation(text: string, why: string): InputUsageError {
  return new InputUsageError(`trace: ${displayArg(text)}: ${why}; ${LINE_RULE}`);
}

/** The line of a location target: digits, read exactly; 0 and numbers past 2^53 - 1 are refused. */
function lineNumber(text: string, digits: string): number {
  const n = Number(digits);
  if (n === 0) throw badLocation(text, 'line 0: lines count from 1');
  if (!Number.isSafeInteger(n)) throw badLocation(text, `line ${displayArg(digits)} is too large`);
  return n;
}

interface OpenEntry {
  ev: CallEvent;
  interims: CallEvent[];
}

interface Pending {
  call: TraceCall;
  /** The terminal event's key, to attach shadows and findings that arrive after the pair. */
  terminalKey: string | null;
  requestKey: string | null;
}

const key = (l: Loc) => `${path.resolve(l.path)}\u0000${l.line}`;

/**
 * One event's own key: several records of one line (a JSON-RPC batch) share its `path:line`, but
 * each event has its own Loc object (profiles/event.ts), which the engine's records keep.
 */
function eventKeys(): { key: (l: Loc) => string; known: (l: Loc) => boolean } {
  const ids = new WeakMap<Loc, string>();
  let serial = 0;
  return {
    key: (l) => {
      let k = ids.get(l);
      if (k === undefined) ids.set(l, (k = `#${++serial}`));
      return k;
    },
    known: (l) => ids.has(l),
  };
}

function traceEvent(ev: CallEvent | CallSide): TraceEvent {
  return {
    loc: ev.loc,
    time: ev.time,
    at: ev.time === null ? null : new Date(ev.time).toISOString(),
    caller: ev.caller,
    id: shownId(ev),
    kind: ev.attrs.kind ?? null,
    status: ev.attrs.status ?? null,
  };
}

/** The cascade step in words (docs/pairing.md): which rule took the request and among how many. */
function whyText(method: Method, candidates: number, confidence: Confidence, spec: ChannelSpec | undefined): string {
  if (method === 'record') return 'record: one record holds both sides (a whole call: its start, end and outcome)';
  if (method === 'id') return 'id: the terminal carries the correlation id of an open request (exact)';
  if (method === 'signature')
    return `signature: no open request has its id; the oldest of ${candidates === 1 ? 'the one open request' : `${candidates}+ open requests`} whose signature (${spec?.signatureFields.join(', ') ?? '…'}) agrees (${confidence})`;
  return `fifo: no open request has its id and no signature agrees; the oldest of ${candidates} open request(s) (${confidence})`;
}

export async function trace(opts: TraceOptions): Promise<TraceReport> {
  const target = opts.target;
  const maxCalls = opts.maxCalls ?? 20;
  const targetKey = target.kind === 'location' ? key(target) : null;
  const targetPointer = target.kind === 'location' ? target.pointer : undefined;
  const atTarget = (l: Loc) => key(l) === targetKey && (targetPointer === undefined || l.pointer === targetPointer);
  const { key: ek, known } = eventKeys();
  const matchesEv = (ev: { loc: Loc; id: string | null; idLabel?: string }) =>
    target.kind === 'id'
      ? ev.id === target.id || ev.idLabel === target.id || (ev.idLabel?.startsWith(`${target.id} (`) ?? false) // `9 (client)`: a direction after the id
      : atTarget(ev.loc);

  const specs = new Map<string, ChannelSpec>();
  // The open requests per channel/scope, mirrored from the events and the pass's pairs and orphans.
  const open = new Map<string, Map<string, OpenEntry>>();
  const scopeKey = (channel: string, scope: string) => `${channel}\u0000${scope}`;
  const calls: Pending[] = [];
  let omitted = 0;
  // Open requests that are (or hold an interim that is) the target: their call is kept when it ends.
  const wanted = new Set<string>();
  let openAtTerminal: Map<string, OpenEntry> | null = null;
  let terminalEv: CallEvent | null = null;
  const byTerminal = new Map<string, Pending>();
  const byRequest = new Map<string, Pending>();

  // By path:line too, for findings whose locations are copies (the first call at a line wins).
  const byTerminalAt = new Map<string, Pending>();
  const byRequestAt = new Map<string, Pending>();
  const keep = (call: TraceCall, requestKey: string | null, terminalKey: string | null) => {
    if (calls.length >= maxCalls) {
      omitted++;
      return;
    }
    const p: Pending = { call, requestKey, terminalKey };
    calls.push(p);
    if (terminalKey) byTerminal.set(terminalKey, p);
    if (requestKey) byRequest.set(requestKey, p);
    if (call.terminal && !byTerminalAt.has(key(call.terminal.loc))) byTerminalAt.set(key(call.terminal.loc), p);
    if (call.request && !byRequestAt.has(key(call.request.loc))) byRequestAt.set(key(call.request.loc), p);
  };

  const blank = (channel: string, scope: string, id: string | null, outcome: TraceCall['outcome']): TraceCall => ({
    channel,
    scope,
    id,
    outcome,
    request: null,
    interims: [],
    terminal: null,
    latencyMs: null,
    method: null,
    confidence: null,
    why: '',
    open: [],
    openOmitted: 0,
    fifo: null,
    signature: null,
    ...(specs.get(channel)?.terminalOrder === 'arbitrary' ? { terminalOrder: 'arbitrary' as const } : {}),
    findings: [],
  });

  const openList = (m: Map<string, OpenEntry> | null, takenKey: string | null) => {
    const all = m ? [...m.values()] : [];
    return {
      open: all.slice(0, MAX_OPEN_LISTED).map((o) => ({ loc: o.ev.loc, caller: o.ev.caller, id: shownId(o.ev), taken: ek(o.ev.loc) === takenKey })),
      omitted: Math.max(0, all.length - MAX_OPEN_LISTED),
    };
  };

  const labelOf = (ev: CallEvent) => shownId(ev);
  // What the engine reported about the current terminal before its pair (shadows, findings).
  let curShadows: ShadowPairRecord[] = [];
  let curFindings: Finding[] = [];
  /** Attaches a shadow to the call whose terminal it is; false when no kept call has that terminal. */
  const onShadow = (s: ShadowPairRecord): boolean => {
    const p = byTerminal.get(ek(s.terminal.loc));
    if (!p) return false;
    if (p.call.method === 'record') return true; // one record: no order to compare (docs/trace.md)
    const sh: TraceShadow = { request: s.request ? { ...s.request.loc, caller: s.request.caller } : null, crossed: s.crossed };
    if (s.shadow === 'fifo') p.call.fifo = sh;
    else p.call.signature = sh;
    return true;
  };
  /** Attaches a finding to the kept call it names first; false when none. */
  const onFound = (f: Finding): boolean => {
    const first = f.locations[0];
    if (!first) return false;
    // An event's own location (the engine's findings): by identity. A copy (a profile's finding
    // about a line): the first kept call at that line.
    const p = known(first) ? (byTerminal.get(ek(first)) ?? byRequest.get(ek(first))) : (byTerminalAt.get(key(first)) ?? byRequestAt.get(key(first)));
    if (!p) return false;
    p.call.findings.push({ code: f.code, severity: f.severity, message: findingMessage(f), locations: f.locations });
    return true;
  };

  let lineReason: string | null = null;
  const otherPointers: string[] = [];
  // A pointer target whose line's call events have no pointer: the line is one record (a JSONL line).
  let wholeLineEvents = false;
  const probe: LineProbe | undefined = target.kind === 'location' ? { path: target.path, line: target.line } : undefined;
  // The records of the target's file that start last at or before its line (a line inside one: docs/trace.md).
  let nearLine = -1;
  const nearPointers: string[] = [];
  const inTarget = new Map<string, boolean>();
  const report = await analyze({
    ...opts,
    lineProbe: probe,
    onChannels: (s) => {
      for (const [n, sp] of s) specs.set(n, sp);
      opts.onChannels?.(s);
    },
    onEvent: (ev) => {
      ek(ev.loc); // known from now on: findings that name this event find it by identity
      if (probe && ev.loc.line <= probe.line && ev.loc.line >= nearLine) {
        let same = inTarget.get(ev.loc.path);
        if (same === undefined) inTarget.set(ev.loc.path, (same = path.resolve(ev.loc.path) === path.resolve(probe.path)));
        if (same) {
          if (ev.loc.line > nearLine) {
            nearLine = ev.loc.line;
            nearPointers.length = 0;
          }
          const p = ev.loc.pointer ?? '';
          if (!nearPointers.includes(p) && nearPointers.length < MAX_OPEN_LISTED) nearPointers.push(p);
        }
      }
      if (targetPointer !== undefined && key(ev.loc) === targetKey) {
        if (ev.loc.pointer === undefined) wholeLineEvents = true;
        else if (otherPointers.length < MAX_OPEN_LISTED && !otherPointers.includes(ev.loc.pointer)) otherPointers.push(ev.loc.pointer);
      }
      const sk = scopeKey(ev.channel, ev.scope);
      let m = open.get(sk);
      if (ev.role === 'request') {
        if (!m) open.set(sk, (m = new Map()));
        m.set(ek(ev.loc), { ev, interims: [] });
        if (matchesEv(ev)) wanted.add(ek(ev.loc));
      } else if (ev.role === 'interim') {
        // Attributed as the engine does: the oldest open request with its id, else the only open one.
        let to: OpenEntry | undefined;
        if (m) {
          if (ev.id !== null) to = [...m.values()].find((o) => o.ev.id === ev.id);
          else if (m.size === 1) to = m.values().next().value;
        }
        if (to && to.interims.length < MAX_INTERIMS) to.interims.push(ev);
        if (to && matchesEv(ev)) wanted.add(ek(to.ev.loc));
      } else {
        openAtTerminal = m ?? null;
        terminalEv = ev;
        curShadows = [];
        curFindings = [];
        // A terminal nothing takes (an orphan response or a duplicate) is reported through findings.
      }
      opts.onEvent?.(ev);
    },
    onPair: (p) => {
      const sk = scopeKey(p.channel, p.scope);
      const m = open.get(sk);
      const rk = ek(p.request.loc);
      const entry = m?.get(rk);
      const hit = wanted.has(rk) || (terminalEv !== null && ek(terminalEv.loc) === ek(p.terminal.loc) && matchesEv(terminalEv));
      if (hit) {
        const call = blank(p.channel, p.scope, entry ? labelOf(entry.ev) : shownId(p.request) ?? shownId(p.terminal), 'paired');
        call.request = traceEvent(p.request);
        call.interims = (entry?.interims ?? []).map(traceEvent);
        call.terminal = traceEvent(p.terminal);
        call.latencyMs = p.latencyMs;
        call.method = p.method;
        call.confidence = p.confidence;
        call.why = whyText(p.method, p.candidates, p.confidence, specs.get(p.channel));
        if (p.method === 'record') {
          // One record is the request and its outcome: one caller, the request's (the record states
          // it once), and nothing open to choose among.
          call.terminal.caller = call.request.caller;
        } else {
          const ol = openList(openAtTerminal, rk);
          call.open = ol.open;
          call.openOmitted = ol.omitted;
        }
        keep(call, rk, ek(p.terminal.loc));
        // The engine reports the terminal's shadows and findings before its pair: attach them now.
        for (const sh of curShadows) onShadow(sh);
        for (const f of curFindings) onFound(f);
      }
      wanted.delete(rk);
      m?.delete(rk);
      if (m && m.size === 0) open.delete(sk);
      opts.onPair?.(p);
    },
    onOrphanRequest: (o) => {
      const sk = scopeKey(o.channel, o.scope);
      const m = open.get(sk);
      const rk = ek(o.request.loc);
      const entry = m?.get(rk);
      if (wanted.has(rk)) {
        const call = blank(o.channel, o.scope, entry ? labelOf(entry.ev) : shownId(o.request), 'orphan-request');
        call.request = traceEvent(o.request);
        call.interims = (entry?.interims ?? []).map(traceEvent);
        call.why =
          o.reason === 'evicted'
            ? 'never closed: evicted while open (--max-open-calls reached)'
            : 'never closed: no terminal took it before the end of the input (no terminal with its id; every fallback terminal went to another request)';
        keep(call, rk, null);
      }
      wanted.delete(rk);
      m?.delete(rk);
      if (m && m.size === 0) open.delete(sk);
      opts.onOrphanRequest?.(o);
    },
    onOrphanResponse: (o) => {
      const t = terminalEv;
      if (t && ek(t.loc) === ek(o.terminal.loc) && matchesEv(t)) {
        const call = blank(o.channel, o.scope, labelOf(t), 'orphan-response');
        call.terminal = traceEvent(o.terminal);
        call.why = t.orphanNote !== undefined ? `nothing took it: ${t.orphanNote}` : orphanWhy(o.reason);
        const ol = openList(openAtTerminal, null);
        call.open = ol.open;
        call.openOmitted = ol.omitted;
        keep(call, null, ek(o.terminal.loc));
      }
      opts.onOrphanResponse?.(o);
    },
    onShadowPair: (s) => {
      if (!onShadow(s) && terminalEv && ek(terminalEv.loc) === ek(s.terminal.loc)) curShadows.push(s);
      opts.onShadowPair?.(s);
    },
    onFinding: (f: Finding) => {
      const first = f.locations[0];
      // The reader's word on the target line (it holds no call then): not JSON, cut, too long.
      if (targetKey !== null && first && (f.code === 'MALFORMED_LINE' || f.code === 'OVERSIZED_LINE') && key(first) === targetKey)
        lineReason ??= f.code === 'MALFORMED_LINE' ? f.data.reason : 'oversized';
      if (!onFound(f) && first) {
        if (terminalEv && (terminalEv.loc === first || (!known(first) && key(terminalEv.loc) === key(first)))) {
          if (f.code === 'DUPLICATE_TERMINAL' && matchesEv(terminalEv)) {
            const call = blank(f.channel ?? '', f.scope ?? '', labelOf(terminalEv), 'duplicate-terminal');
            call.terminal = traceEvent(terminalEv);
            call.why = 'nothing took it: a second terminal for a call already closed';
            keep(call, null, ek(terminalEv.loc));
            onFound(f);
          } else curFindings.push(f);
        }
      }
      opts.onFinding?.(f);
    },
  });
  const out: TraceReport = { schema: TRACE_SCHEMA, tool: { name: 'callpair', version: VERSION }, target, calls: calls.map((p) => p.call), callsOmitted: omitted };
  if (target.kind === 'location' && calls.length === 0) {
    const input = report.inputs.find((i) => path.resolve(i.path) === path.resolve(target.path));
    // Not read: what its line is cannot be said (it is no `unparsed` line of an input).
    if (!input && target.path !== '-') throw new InputUsageError(`trace: ${displayArg(target.path)} is not among the inputs read: give it as an input too (or no inputs: they default to it)`);
    const profile = input && input.profile !== 'none' ? input.profile : report.run.profile;
    // A pointer names its record itself: the record around the line is not looked for.
    const w = probe?.at || targetPointer !== undefined ? undefined : probe?.within;
    if (w) {
      // A line inside a document record: the record (or the record inside it) whose lines hold it,
      // traced as its own PATH:LINE[#POINTER] is.
      // The record itself (a top-level element, or an element of a split array: its own pointer), or one inside it.
      const own = w.pointer ?? '';
      const holder = nearLine >= w.line ? nearPointers.find((p) => (p === own ? nearLine === w.line : w.pointer === undefined && spans(w, p, nearLine, target.line))) : undefined;
      if (holder !== undefined) {
        const inner = await trace({ ...opts, target: { kind: 'location', path: target.path, line: nearLine, ...(holder !== '' ? { pointer: holder } : {}) } });
        return { ...inner, target, within: { line: nearLine, ...(holder !== '' ? { pointer: holder } : {}), ...(w.pointer === undefined ? { document: w.line } : {}) } };
      }
      out.line = documentLine(w, profile);
      return out;
    }
    const line =
      otherPointers.length > 0 || wholeLineEvents
        ? { state: 'pointer' as const, kind: null, profile, pointers: otherPointers }
        : await describeLine(target.path, target.line, profile, lineReason, probe?.at ?? null, input?.format ?? 'jsonl');
    if (line) out.line = line;
  }
  return out;
}

/** Whether the record at `pointer` inside document record `w` starts on line `start` and reaches `line`. */
/** A traced line that a document record holds (or starts), with no call on it: that record's kind, outcome and lines. */
function documentLine(r: ProbedRecord, profile: string | null): TraceLine {
  return { state: 'document', kind: recordKind(r.value), profile, outcome: r.outcome, record: { line: r.line, end: r.end } };
}

function spans(w: ProbedRecord & { bytes: Buffer }, pointer: string, start: number, line: number): boolean {
  const s = pointerLines(w.value, w.bytes, pointer);
  return s !== null && w.line + s.start === start && w.line + s.end >= line;
}

/** A record's kind in a few words: the field a profile would have classified it by. */
function recordKind(v: unknown): string {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return Array.isArray(v) ? 'a JSON array' : `a JSON ${v === null ? 'null' : typeof v}`;
  const o = v as Record<string, unknown>;
  const clip = (x: string) => (x.length > 80 ? `${x.slice(0, 80)}…` : x);
  for (const k of ['event', 'method', 'type', 'kind']) if (typeof o[k] === 'string') return `${k} "${clip(o[k] as string)}"`;
  const schema = typeof o.schema === 'string' ? o.schema : o.schema && typeof o.schema === 'object' && typeof (o.schema as Record<string, unknown>).name === 'string' ? ((o.schema as Record<string, unknown>).name as string) : null;
  if (schema !== null) return `schema "${clip(schema)}"`;
  const keys = Object.keys(o);
  return keys.length === 0 ? 'an empty object' : `an object with ${keys.slice(0, 5).map(clip).join(', ')}${keys.length > 5 ? ', …' : ''}`;
}

/**
 * Reads line `n` of a plain or gzip file (stdin and unreadable files: null). `reason`: what the
 * pass reported of that line (a MALFORMED_LINE reason, or `oversized`), null when nothing; `at`:
 * the record the pass parsed starting on it, null when none (a JSONL line then was skipped
 * without JSON.parse: `unparsed`); `format`: the input's.
 */
async function describeLine(file: string, n: number, profile: string, reason: string | null, at: ProbedRecord | null, format: 'jsonl' | 'json'): Promise<TraceLine | null> {
  if (file === '-') return null;
  try {
    const { createReadStream } = await import('node:fs');
    const { createGunzip } = await import('node:zlib');
    const { createInterface } = await import('node:readline');
    const raw = createReadStream(file);
    const rl = createInterface({ input: file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw, crlfDelay: Infinity });
    let i = 0;
    try {
      for await (let text of rl) {
        if (++i < n) continue;
        if (i === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a BOM, dropped as the reader does
        if (text.trim() === '') return { state: 'blank', kind: null, profile };
        let value: unknown;
        let json = true;
        try {
          value = JSON.parse(text);
        } catch {
          json = false;
        }
        if (reason !== null) return { state: 'malformed', kind: json ? recordKind(value) : null, profile, reason };
        if (json && profile.split(/[+,\s]+/).includes('transcript')) {
          // A transcript line with tool blocks and no call event: every block repeats one read before.
          const ids = transcriptBlockIds(value);
          if (ids.length > 0) {
            const shown = [...new Set(ids.flatMap((id) => (typeof id === 'string' && checkCorrelationId('id', id).kind === 'valid' ? [id] : [])))];
            return { state: 'repeat', kind: recordKind(value), profile, repeats: shown.slice(0, 20) };
          }
        }
        // A document record starting on this line that spans lines (or that a profile used: its
        // calls are at other lines), or a line of a document in no record read whole.
        if (at && (at.end > at.line || at.outcome === 'used')) return documentLine(at, profile);
        if (!at && format === 'json') return { state: 'document', kind: null, profile, record: null };
        // Parsed: the profiles read it (JSON.parse's reading, docs/inputs.md); else skipped unparsed.
        if (at) return { state: 'read', kind: recordKind(json ? value : at.value), profile, outcome: at.outcome };
        return { state: 'unparsed', kind: json ? recordKind(value) : null, profile };
      }
    } finally {
      rl.close();
      raw.destroy();
    }
    return { state: 'absent', kind: null, profile, lines: i };
  } catch {
    return null;
  }
}

/** Why nothing took a terminal, by the engine's reason (OrphanResponseRecord). */
function orphanWhy(reason: OrphanResponseRecord['reason']): string {
  switch (reason) {
    case 'id-not-open':
      return 'nothing took it: it carries an id no open request has, and no open request without an id was there to take it';
    case 'id-evicted':
      return 'nothing took it: its request was evicted while open (--max-open-calls reached) before it came';
    case 'id-already-closed':
      return 'nothing took it: its id belongs to a call already closed, and the channel counts each terminal as its own';
    case 'signature-conflict':
      return 'nothing took it: the request open with its id names other content (SIGNATURE_CONFLICT)';
    case 'no-open-request':
      return 'nothing took it: no request was open in its scope (or none whose signature agrees, where the channel requires one)';
  }
}
