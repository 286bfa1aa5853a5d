/**
 * What the timeline holds of a scope during the pass: its calls as the engine's sink reported them
 * (positions not yet laid out) and the problems seen so far (for admission).
 */
import type { Confidence, Loc, Method } from '../../model.js';

export interface RawPoint {
  loc: Loc;
  time: number | null;
}

export interface RawCall {
  kind: 'pair' | 'orphan-request' | 'orphan-response';
  caller: string;
  method: Method | null;
  confidence: Confidence | null;
  status: string | null;
  errorText: string | null;
  kindText: string | null;
  id: string | null;
  provider: string | null;
  model: string | null;
  tool: string | null;
  request: RawPoint | null;
  terminal: RawPoint | null;
  /** Orphan request: age against the scope's last event. */
  ageMs: number | null;
  latencyMs: number | null;
  crossed: boolean;
  fifoPartner: Loc | null;
  reason: string | null;
}

export interface Held {
  channel: string;
  scope: string;
  calls: RawCall[];
  orphanRequestsKept: number;
  droppedPairs: number;
  droppedOrphans: number;
  open: number;
  /** Problems seen so far (orphan requests are only known at the end: open calls stand in for them). */
  crossed: number;
  orphans: number;
  ambiguous: number;
  lastSeen: number;
  partial: boolean;
  /** Requests seen while held and still open, by loc key: for `partial`. */
  seenOpen: Set<string>;
}

export const key = (channel: string, scope: string) => `${channel}\u0000${scope}`;
export const locKey = (l: Loc) => `${l.line}\u0000${l.path}`;
