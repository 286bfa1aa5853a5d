/**
 * The two shadows (docs/design.md §5): FIFO and signature-FIFO pair every non-redundant terminal
 * as if ids did not exist, beside the real cascade, so compare can say what each would have done.
 * They hold their own copies of the scope's open requests and know no ids.
 */
import type { CallEvent } from '../model.js';
import { sigMatch } from './cascade.js';
import type { OpenSet, ShadowReq } from './state.js';

/** What the shadows gave one terminal, and how many requests each had open before it. */
export interface ShadowTake {
  fifo: ShadowReq | null;
  signature: ShadowReq | null;
  fifoInFlight: number;
  signatureInFlight: number;
}

/** Both shadows take their partner for this terminal (FIFO: the oldest; signature-FIFO: the oldest agreeing, else the oldest). */
export function takeShadows(open: OpenSet | null, ev: CallEvent): ShadowTake {
  const take: ShadowTake = { fifo: null, signature: null, fifoInFlight: open ? open.fifo.size : 0, signatureInFlight: open ? open.sigShadow.size : 0 };
  if (!open) return take;
  const f = open.fifo.values().next();
  if (!f.done) {
    take.fifo = f.value;
    open.fifo.delete(f.value.seq);
  }
  take.signature = pickShadow(open.sigShadow, ev.sig);
  if (take.signature) open.sigShadow.delete(take.signature.seq);
  return take;
}

/** An evicted request is gone from the shadows too; neither holds more than the scope's open requests. */
export function forgetInShadows(open: OpenSet, seq: number): void {
  open.fifo.delete(seq);
  open.sigShadow.delete(seq);
  trimOldest(open.fifo, open.all.size);
  trimOldest(open.sigShadow, open.all.size);
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


function trimOldest(m: Map<number, ShadowReq>, max: number): void {
  while (m.size > max) {
    const k = m.keys().next();
    if (k.done) return;
    m.delete(k.value);
  }
}

