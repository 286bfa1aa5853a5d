/**
 * The two shadows (docs/design.md §5): FIFO and signature-FIFO pair every non-redundant terminal
 * as if ids did not exist, beside the real cascade, so compare can say what each would have done.
 * Each holds the scope's open requests it has not taken yet (src/engine/state.ts) and knows no ids.
 */
import type { CallEvent } from '../model.js';
import type { SigPool } from './pool.js';
import type { OpenSet, ShadowReq } from './state.js';

/** What the shadows gave one terminal, and how many requests each had open before it. */
export interface ShadowTake {
  fifo: ShadowReq | null;
  signature: ShadowReq | null;
  fifoInFlight: number;
  signatureInFlight: number;
}

/** What the shadows give a terminal when nothing reads them (ChannelState `shadows`). */
export const NO_SHADOWS: ShadowTake = Object.freeze({ fifo: null, signature: null, fifoInFlight: 0, signatureInFlight: 0 });

/** Both shadows take their partner for this terminal (FIFO: the oldest; signature-FIFO: the oldest agreeing, else the oldest). */
export function takeShadows(open: OpenSet | null, ev: CallEvent): ShadowTake {
  const take: ShadowTake = { fifo: null, signature: null, fifoInFlight: open ? open.fifo.size : 0, signatureInFlight: open ? open.sigShadow.size : 0 };
  if (!open) return take;
  take.fifo = open.fifo.shift() ?? null;
  // The oldest with an agreeing signature (the pool's index, no scan), else the oldest.
  take.signature = open.sigShadow.match(ev.sig) ?? open.sigShadow.first() ?? null;
  if (take.signature) open.sigShadow.delete(take.signature);
  return take;
}

/** An evicted request is gone from the shadows too; neither holds more than the scope's open requests. */
export function forgetInShadows(open: OpenSet, req: ShadowReq): void {
  open.fifo.delete(req);
  open.sigShadow.delete(req);
  trimOldest(open.fifo, open.all.size);
  trimOldest(open.sigShadow, open.all.size);
}

function trimOldest(m: SigPool<ShadowReq>, max: number): void {
  while (m.size > max && m.shift() !== undefined);
}

