/**
 * Scope admission: which scopes the timeline holds calls for during the pass. At most `maxHeld`
 * at once; a new scope always gets a chance, and the least bad held scope makes room for it.
 */
import { key, type Held } from './held.js';

export class ScopeAdmission {
  readonly held = new Map<string, Held>();
  private tick = 0;

  constructor(private readonly maxHeld: number) {}

  /** The held record of a scope, if it is held. */
  get(channel: string, scope: string): Held | undefined {
    return this.held.get(key(channel, scope));
  }

  /** An event of this scope: admits it if needed, and marks it the most recently active. */
  touch(channel: string, scope: string): Held | null {
    const h = this.hold(channel, scope);
    if (h) h.lastSeen = ++this.tick;
    return h;
  }

  /** The held record of a scope, admitting it if there is room or a clean scope can be let go. */
  private hold(channel: string, scope: string): Held | null {
    const k = key(channel, scope);
    const h = this.held.get(k);
    if (h) return h;
    if (this.held.size >= this.maxHeld) {
      // A new scope always gets a chance: let go of the least bad scope so far (an open call counts
      // as a likely orphan), the least recently active among equals. The worst scopes stay held.
      let victim: [string, Held] | null = null;
      for (const e of this.held) {
        if (!victim || lessBad(e[1], victim[1])) victim = e;
      }
      if (!victim) return null;
      this.held.delete(victim[0]);
    }
    const n: Held = {
      channel,
      scope,
      calls: [],
      orphanRequestsKept: 0,
      droppedPairs: 0,
      droppedOrphans: 0,
      open: 0,
      crossed: 0,
      orphans: 0,
      ambiguous: 0,
      lastSeen: this.tick,
      partial: false,
      seenOpen: new Set(),
    };
    this.held.set(k, n);
    return n;
  }
}

function lessBad(a: Held, b: Held): boolean {
  return (a.crossed - b.crossed || a.orphans + a.open - (b.orphans + b.open) || a.ambiguous - b.ambiguous || a.lastSeen - b.lastSeen) < 0;
}
