/**
 * HTTP Archives (HAR 1.2, browser and proxy exports): `--profile har`, and `auto` on a JSON
 * document with `log.entries` (docs/transcripts.md, "har").
 *
 * - each `log.entries[]` element is a whole call in one record: its request at `startedDateTime`
 *   (RFC 3339, any offset: `-07:00` as well as `Z`), its response `time` milliseconds later (the
 *   entry's total), so the pair's method is `record` and its latency is `time`;
 * - `response.status` ≥ 400 is a failed call, and so is status 0: no response (blocked, aborted,
 *   failed; browsers write the reason in `response._error`);
 * - scope: the entry's `pageref` (one page load), else the file; rows are request methods,
 *   latency groups (method, host);
 * - the records' location is the one the document reader gives them (a JSON document: where the
 *   record starts); a file whose records are the entries themselves (one entry per line, or an
 *   array of entries) is read the same way.
 */
import type { CallAttrs, ChannelSpec, Loc } from '../model.js';
import type { Source } from '../input/sources.js';
import { recordLines } from '../input/documents.js';
import { derivedKey, makeEvent } from './event.js';
import { deriveNeedles } from './lang/needles.js';
import type { KeepSpec } from './keep.js';
import type { Profile, ProfileContext, RecordHandler, RecordOutcome } from './types.js';
import { asNumber, asObject, asString } from './types.js';
import { parseTime } from './time.js';

export const HAR_CHANNEL: ChannelSpec = {
  name: 'har',
  rowLabel: 'method',
  attribution: 'provider',
  groupLabels: ['method', 'host'],
  // An HTTP status ≥ 400, or no response at all (status 0, the only entry given an error text):
  // declared as the statuses, so the report's rule text ("status ≥ 400 or status 0") is the rule.
  failure: { kind: 'any', rules: [{ kind: 'status-at-least', min: 400 }, { kind: 'status-in', statuses: ['0'] }] },
  idKind: 'correlation',
  ordered: false,
  signatureFields: ['method', 'url'],
  signatureRequired: true,
  // An entry's two halves are joined by an internal key, not an id of the log's: no id is declared
  // (id coverage n/a, and --min-id-coverage cannot be evaluated).
  ids: 'undeclared',
};

const ENTRY_TREE = { startedDateTime: true, time: true, pageref: true, request: { method: true, url: true }, response: { status: true, _error: true } } as const;

/** `Profile.keep`: what the profile reads of a document (`log.entries` is an array: kept whole) or of an entry. */
/** Where the entries sit in a HAR document (for their lines). */
const ENTRY_STEPS = [{ key: 'log' }, { key: 'entries' }, { each: true }] as const;

export const HAR_KEEP: KeepSpec = { tree: { ...ENTRY_TREE, log: { entries: true } } };

export interface HarSummary {
  entries: number;
  /** Entries with `response.status` 0 (no response). */
  noResponse: number;
  /** Entries with a status ≥ 400. */
  httpErrors: number;
  /** Entries whose `startedDateTime` is missing or unreadable (no latency). */
  unreadableTimes: number;
}

/** Whether a value is one HAR entry (a request and a response). */
function isEntry(o: Record<string, unknown> | null): boolean {
  return o !== null && asObject(o.request) !== null && asObject(o.response) !== null && o.startedDateTime !== undefined;
}

function hostOf(url: string | null): string | null {
  if (url === null) return null;
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(url);
  if (!m) return null;
  // Userinfo is never shown.
  const host = m[1]!.slice(m[1]!.lastIndexOf('@') + 1);
  return host === '' ? null : host;
}

export function harProfile(): Profile {
  const sum: HarSummary = { entries: 0, noResponse: 0, httpErrors: 0, unreadableTimes: 0 };
  let seq = 0;

  function entry(e: Record<string, unknown>, loc: Loc, ctx: ProfileContext): void {
    sum.entries++;
    const request = asObject(e.request)!;
    const response = asObject(e.response)!;
    const method = asString(request.method);
    const url = asString(request.url);
    const host = hostOf(url);
    const status = asNumber(response.status);
    const start = parseTime(e.startedDateTime);
    if (start === null) sum.unreadableTimes++;
    const total = asNumber(e.time);
    const end = start !== null && total !== null && total >= 0 ? start + total : null;
    let error: string | null = null;
    if (status === 0) {
      sum.noResponse++;
      error = asString(response._error) ?? 'no response (status 0)';
    } else if (status !== null && status >= 400) sum.httpErrors++;
    const scope = asString(e.pageref) ?? '';
    // A whole call: its two events share a key of this entry's own (its place in the input).
    const key = derivedKey(`har:${++seq}`);
    const reqAttrs: CallAttrs = { kind: 'har entry', provider: method, model: host };
    const req = makeEvent(HAR_CHANNEL, { role: 'request', scope, id: key, sig: [method, url], time: start, caller: null, attrs: reqAttrs, loc }, ctx);
    req.wholeRecord = true;
    ctx.emit(req);
    const termAttrs: CallAttrs = { kind: 'har entry', provider: method, model: host, status: status !== null ? String(status) : null, error, durationMs: total !== null && total >= 0 ? total : null };
    const term = makeEvent(HAR_CHANNEL, { role: 'terminal', scope, id: key, sig: [method, url], time: end, caller: null, attrs: termAttrs, loc }, ctx);
    term.wholeRecord = true;
    ctx.emit(term);
  }

  return {
    name: 'har',
    channels: [HAR_CHANNEL],
    needles: deriveNeedles(['startedDateTime']),
    keep: HAR_KEEP,
    splits: [['log', 'entries']],
    open(source: Source, ctx: ProfileContext): RecordHandler | null {
      if (source.role !== 'capture') return null;
      return {
        record(value: unknown, loc: Loc, _raw: Buffer | null, doc?: Buffer): RecordOutcome {
          const o = asObject(value);
          if (o !== null && isEntry(o)) {
            entry(o, loc, ctx);
            return 'used';
          }
          const entries = asObject(o?.log)?.entries;
          if (!Array.isArray(entries)) return 'unclaimed';
          // Each entry at the line where it starts inside the document, with its JSON pointer
          // (docs/profiles.md, "Records inside a value, located"), as a custom `records` path gives.
          const lines = doc ? recordLines(doc, ENTRY_STEPS) : null;
          let used = false;
          for (let k = 0; k < entries.length; k++) {
            const eo = asObject(entries[k]);
            if (eo === null || !isEntry(eo)) continue;
            entry(eo, { path: loc.path, line: loc.line + (lines?.[k] ?? 0), pointer: `/log/entries/${k}` }, ctx);
            used = true;
          }
          return used ? 'used' : 'ignored';
        },
      };
    },
    summary: () => (sum.entries > 0 ? { ...sum } : undefined),
  };
}
