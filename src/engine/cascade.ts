/**
 * The pairing cascade (docs/design.md §5): a terminal takes the open request with its id; failing
 * that, among the requests it may take (those without an id when it has one), the oldest with an
 * agreeing signature; failing that (unless the channel requires a signature), the oldest.
 */
import type { CallEvent, ChannelSpec, Confidence, Method } from '../model.js';
import { IdList, idIndex, type OpenReq, type OpenSet } from './state.js';
import { sigConflict, sigMatch } from './signature.js';

export { conflictField, sigConflict, sigMatch } from './signature.js';

/** The request a terminal takes, how, and how sure. */
export interface CascadeMatch {
  taken: OpenReq;
  method: Method;
  confidence: Confidence;
  /** Requests that could have been taken the same way. */
  candidates: number;
}

/**
 * The terminal's id is open, but on a channel that requires a signature every request holding it
 * names other content (another tool): the id joins nothing, and the engine reports the conflict.
 */
export interface CascadeConflict {
  conflict: OpenReq;
}

export function cascade(open: OpenSet | null, ev: CallEvent, spec: ChannelSpec): CascadeMatch | CascadeConflict | null {
  if (!open) return null;
  if (ev.id !== null) {
    const small = open.all.smallEntries();
    if (small !== null) {
      // A small pool holds no id index (src/engine/state.ts): the same answer, read off its requests in arrival order.
      let first: OpenReq | undefined;
      for (let i = 0; i < small.length; i++) {
        const r = small[i]!;
        if (r.ev.id !== ev.id) continue;
        if (!spec.signatureRequired || !sigConflict(ev.sig, r.sig)) return { taken: r, method: idMethod(ev, r), confidence: 'exact', candidates: 1 };
        first ??= r;
      }
      if (first !== undefined) return { conflict: first };
    } else {
      const held = idIndex(open).get(ev.id);
      if (held !== undefined) {
        if (!(held instanceof IdList)) {
          // A signature the channel requires must not conflict, even under an id (below).
          if (!spec.signatureRequired || !sigConflict(ev.sig, held.sig)) return { taken: held, method: idMethod(ev, held), confidence: 'exact', candidates: 1 };
          return { conflict: held };
        }
        const first = held.first();
        if (!spec.signatureRequired) return { taken: first, method: idMethod(ev, first), confidence: 'exact', candidates: 1 };
        // A signature the channel requires must not conflict, even under an id: the oldest request
        // with this id whose known fields agree is taken; none agreeing is a conflict, never a pair.
        for (const r of held.values()) if (!sigConflict(ev.sig, r.sig)) return { taken: r, method: idMethod(ev, r), confidence: 'exact', candidates: 1 };
        return { conflict: first };
      }
    }
  }
  const pool = ev.id !== null ? open.noId : open.all;
  if (pool.size === 0) return null;
  let taken: OpenReq;
  let method: Method;
  let candidates: number;
  // The pool's signature index: no scan of the open requests (src/engine/pool.ts).
  const firstMatch = pool.match(ev.sig);
  if (firstMatch) {
    method = 'signature';
    taken = firstMatch;
    // Candidates of a signature pair: one, or several (counted as 2, as a stopping scan would).
    candidates = Math.min(pool.matched, 2);
  } else if (!spec.signatureRequired) {
    method = 'fifo';
    taken = pool.first()!;
    candidates = pool.size;
  } else return null;
  const oldest = open.all.first()!;
  const orderedOk = spec.ordered && taken === oldest && sigMatch(ev.sig, taken.sig);
  const confidence: Confidence = candidates === 1 || orderedOk ? 'unambiguous' : 'ambiguous';
  return { taken, method, confidence, candidates };
}

/** A request and its terminal from one record (a whole call) pair by that record's key, which is no pairing evidence: method `record`. */
function idMethod(ev: CallEvent, r: OpenReq): Method {
  return ev.wholeRecord && r.ev.wholeRecord ? 'record' : 'id';
}
