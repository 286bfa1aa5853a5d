/**
 * What the trace formatters (table, Markdown) show of the `callpair.trace.v1` object, as one list
 * of blocks, so both show the same things; every capture string goes through `safeText`.
 */
import type { TraceCall, TraceEvent, TraceReport, TraceShadow } from '../../trace/trace.js';
import type { Block } from '../compare/blocks.js';
import { loc, oneLine, safeText } from '../safe.js';
import { msText } from '../present.js';

export type { Block };

function when(e: TraceEvent): string {
  return e.at ?? '(no time)';
}

function eventRow(role: string, e: TraceEvent): string[] {
  return [role, loc(e.loc), when(e), safeText(e.caller, 40), safeText([e.kind, e.status].filter(Boolean).join(' '), 40)];
}

function shadowText(name: string, s: TraceShadow | null, call: TraceCall): string {
  if (!s) return `${name}: not known (the terminal was not seen by the shadows)`;
  if (!s.request) return `${name} would leave this terminal unpaired (nothing open)`;
  const same = call.request && s.request.path === call.request.loc.path && s.request.line === call.request.loc.line;
  const tid = call.terminal?.id ?? null;
  // Not paired by id: the terminal has no id, or its id is no open request's.
  const unknown = tid !== null ? `its id ${safeText(tid, 130)} matches no open request` : 'no id to say which is right';
  const verdict = s.crossed === true ? 'crossed: not the true request' : same ? 'the same request' : s.crossed === null ? unknown : '';
  return `${name} would take ${loc(s.request)} (${safeText(s.request.caller, 40)})${verdict ? ` — ${verdict}` : ''}`;
}

/** The target as the user typed it: its control characters shown as escapes (`\x1b`), not dropped, so it reads as what was given. */
function targetText(t: TraceReport['target']): string {
  return t.kind === 'id' ? `id ${oneLine(t.id, 130)}` : `${oneLine(t.path, 400)}:${t.line}${t.pointer ? `#${oneLine(t.pointer, 200)}` : ''}`;
}

function malformedText(l: NonNullable<TraceReport['line']>): string {
  const kind = l.kind ? ` (${safeText(l.kind, 120)})` : '';
  if (l.reason === 'truncated') return 'the line is cut short';
  if (l.reason === 'invalid-json' || !l.kind) return 'the line is not JSON';
  return `the line${kind} is reported`;
}

/** Why a traced line holds no call: read and ignored (its record kind), blank, reported malformed, skipped unparsed, or past the end. */
function lineText(target: TraceReport['target'], l: NonNullable<TraceReport['line']>): string {
  const at = targetText(target);
  const by = l.profile ? ` by profile ${safeText(l.profile, 60)}` : '';
  switch (l.state) {
    case 'read':
      return l.outcome === undefined || l.outcome === 'ignored'
        ? `No call at ${at}: the line was parsed and ignored${by}: its record (${safeText(l.kind ?? '', 120)}) is no request, interim or terminal of a channel.`
        : `No call at ${at}: the line's record (${safeText(l.kind ?? '', 120)}) was ${l.outcome === 'used' ? 'used' : 'counted as a duplicate'}${by}, but no call event is at it.`;
    case 'document':
      return documentText(at, by, l);
    case 'blank':
      return `No call at ${at}: the line is blank.`;
    case 'malformed':
      return l.reason === 'oversized'
        ? `No call at ${at}: the line is over --max-line-bytes (an OVERSIZED_LINE finding), skipped.`
        : `No call at ${at}: ${malformedText(l)} (a MALFORMED_LINE finding, ${safeText(l.reason ?? 'invalid-json', 40)}).`;
    case 'unparsed':
      return l.kind
        ? `No call at ${at}: no needle or kind key of profile ${safeText(l.profile ?? '', 60)} is on the line (${safeText(l.kind, 120)}): skipped without JSON.parse, counted as ignored and unparsed.`
        : `No call at ${at}: the line is not JSON, but no needle or kind key of profile ${safeText(l.profile ?? '', 60)} is on it: skipped without JSON.parse, counted as ignored and unparsed (with --validate-all, a MALFORMED_LINE finding).`;
    case 'absent':
      return `No call at ${at}: the file has ${l.lines ?? 0} line(s).`;
    case 'repeat':
      return `No call at ${at}: every tool call and result on the line was read before (records.transcript.repeatedHistory, repeatedBlocks): the same call${(l.repeats ?? []).length > 0 ? `; trace it by its id: ${(l.repeats ?? []).map((id) => safeText(id, 130)).join(', ')}` : ''}.`;
    case 'pointer':
      return (l.pointers ?? []).length > 0
        ? `No call at ${at}: the line's call events are at ${(l.pointers ?? []).map((p) => safeText(p, 200)).join(', ')}.`
        : `No call at ${at}: the line is one record, read whole, and its call events have no JSON pointer (a pointer picks one of several records a line holds: a HAR entry, a custom records path); trace ${target.kind === 'location' ? loc({ path: target.path, line: target.line }) : at}.`;
  }
}

/** A line of a JSON document that holds no call: the document record it is in (or starts), or none read whole. */
function documentText(at: string, by: string, l: NonNullable<TraceReport['line']>): string {
  const r = l.record;
  if (!r) return `No call at ${at}: the line is part of a JSON document but in none of its records (its brackets and separators, or the bytes around the elements of a document read element by element).`;
  const doc = `No call at ${at}: the line is in the JSON document record at lines ${r.line}–${r.end} (${safeText(l.kind ?? '', 120)})`;
  if (l.outcome === 'used') return `${doc}, used${by}: none of the records it holds that are calls spans the line.`;
  if (l.outcome === 'duplicate') return `${doc}, counted as a duplicate${by}.`;
  return `${doc}, parsed and ignored${by}: it is no request, interim or terminal of a channel.`;
}

export function traceBlocks(t: TraceReport): Block[] {
  const out: Block[] = [];
  if (t.within) {
    const w = t.within;
    const rec = `${loc({ path: t.target.kind === 'location' ? t.target.path : '', line: w.line, ...(w.pointer !== undefined ? { pointer: w.pointer } : {}) })}`;
    out.push({ kind: 'text', text: `${targetText(t.target)} is inside the record at ${rec}${w.document === undefined ? ' (an element of a document read element by element)' : w.line !== w.document ? ` (in the document record that starts at line ${w.document})` : ''}: that record traced.` });
  }
  if (t.calls.length === 0) {
    out.push({ kind: 'text', text: t.line ? lineText(t.target, t.line) : `No call found for ${targetText(t.target)} (a line of a request, interim or terminal, or a correlation id).`, tone: 'warn' });
    return out;
  }
  t.calls.forEach((c, i) => {
    const title = `Call ${t.calls.length > 1 ? `${i + 1} of ${t.calls.length} ` : ''}— channel ${safeText(c.channel)}, scope ${safeText(c.scope || '(none)', 80)}${c.id ? `, id ${safeText(c.id, 130)}` : c.method === 'id' ? ', id not shown (it has no display form: docs/pairing.md, "How ids are shown")' : ', no id'}`;
    out.push({ kind: 'heading', text: title });
    const rows: string[][] = [];
    if (c.request) rows.push(eventRow('request', c.request));
    for (const e of c.interims) rows.push(eventRow('interim', e));
    if (c.terminal) rows.push(eventRow('terminal', c.terminal));
    out.push({ kind: 'table', head: ['event', 'at', 'time', 'caller', 'kind'], rows });
    const how =
      c.outcome === 'paired'
        ? `Paired by ${c.method}, confidence ${c.confidence}${c.latencyMs !== null ? `, latency ${msText(c.latencyMs)}` : ''}.`
        : c.outcome === 'orphan-request'
          ? 'Orphan request: never closed.'
          : c.outcome === 'orphan-response'
            ? 'Orphan response: no request taken.'
            : 'Duplicate terminal: counted, never paired.';
    out.push({ kind: 'text', text: how, tone: c.outcome === 'paired' ? undefined : 'warn' });
    out.push({ kind: 'text', text: `Why: ${c.why}` });
    if (c.method === 'record') out.push({ kind: 'text', text: 'One record: the request and its outcome are the same record (no order to pair by, no FIFO or signature-FIFO pick).' });
    else if (c.terminal) {
      if (c.open.length > 0) {
        out.push({ kind: 'text', text: `Open in scope ${safeText(c.scope || '(none)', 80)} when the terminal arrived (oldest first):` });
        out.push({
          kind: 'table',
          head: ['request', 'caller', 'id', ''],
          rows: c.open.map((o) => [loc(o.loc), safeText(o.caller, 40), o.id === null ? '(none)' : safeText(o.id, 130), o.taken ? 'taken' : '']),
        });
        if (c.openOmitted > 0) out.push({ kind: 'text', text: `…and ${c.openOmitted} more open request(s)`, tone: 'dim' });
      } else if (c.outcome !== 'duplicate-terminal') out.push({ kind: 'text', text: 'No request was open in its scope when the terminal arrived.' });
      if (c.terminalOrder === 'arbitrary') {
        if (c.outcome === 'paired' || c.outcome === 'orphan-response')
          out.push({ kind: 'text', text: 'FIFO is meaningless here: the channel’s terminal order is arbitrary by contract (no crossed pairs are counted).', tone: 'dim' });
      } else if (c.outcome === 'paired' || c.outcome === 'orphan-response') {
        out.push({ kind: 'text', text: shadowText('FIFO', c.fifo, c) });
        out.push({ kind: 'text', text: shadowText('signature-FIFO', c.signature, c) });
      }
    }
    if (c.findings.length > 0) {
      out.push({
        kind: 'table',
        head: ['finding', 'severity', 'at', 'message'],
        rows: c.findings.map((f) => [f.code, f.severity, f.locations.map(loc).join(' '), safeText(f.message, 300)]),
      });
    } else out.push({ kind: 'text', text: 'No finding names this call.', tone: 'dim' });
  });
  if (t.callsOmitted > 0) out.push({ kind: 'text', text: `…and ${t.callsOmitted} more call(s) with this id (see --format json, or trace by PATH:LINE)`, tone: 'dim' });
  return out;
}
