/**
 * The pairing cascade (docs/design.md §5): a terminal takes the open request with its id; failing
 * that, among the requests it may take (those without an id when it has one), the oldest with an
 * agreeing signature; failing that (unless the channel requires a signature), the oldest.
 */
import type { CallEvent, ChannelSpec, Confidence, Method } from '../model.js';
import type { OpenReq, OpenSet } from './state.js';

/** The request a terminal takes, how, and how sure. */
export interface CascadeMatch {
  taken: OpenReq;
  method: Method;
  confidence: Confidence;
  /** Requests that could have been taken the same way. */
  candidates: number;
}

export function cascade(open: OpenSet | null, ev: CallEvent, spec: ChannelSpec): CascadeMatch | null {
  if (!open) return null;
  if (ev.id !== null) {
    const list = open.byId.get(ev.id);
    // A request and its terminal from one record (a whole call) pair by that record's key, which
    // is no pairing evidence: method `record`.
    if (list && list.length > 0) return { taken: list[0]!, method: ev.wholeRecord && list[0]!.ev.wholeRecord ? 'record' : 'id', confidence: 'exact', candidates: 1 };
  }
  const pool = ev.id !== null ? open.noId : open.all;
  if (pool.size === 0) return null;
  let taken: OpenReq | undefined;
  let method: Method;
  let candidates: number;
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
  } else if (!spec.signatureRequired) {
    method = 'fifo';
    taken = pool.values().next().value!;
    candidates = pool.size;
  } else return null;
  const oldest = open.all.values().next().value!;
  const orderedOk = spec.ordered && taken === oldest && sigMatch(ev.sig, taken.ev.sig);
  const confidence: Confidence = candidates === 1 || orderedOk ? 'unambiguous' : 'ambiguous';
  return { taken, method, confidence, candidates };
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

