/**
 * A deterministic generator of Amplifier captures for the compare/pairs tests: per session a
 * sequential agent loop (one `agent` call after another), a session-naming call at the start, and
 * background `summarizer` calls that start during an agent call and overlap it and the next ones;
 * some calls time out (`provider:error` TimeoutError), a few are never answered. Usage comes in
 * both eras (`input_tokens`… and the older `input`/`output`…), sometimes with unknown fields.
 * Seeded PRNG (mulberry32): same options → byte-identical lines.
 */
import { writeFileSync } from 'node:fs';

export interface GenOptions {
  sessions: number;
  seed?: number;
  /** Write request_id on both sides (full id coverage); false: no ids at all. */
  ids?: boolean;
  /** Agent turns per session: [min, max]. */
  turns?: [number, number];
}

export interface GenStats {
  sessions: number;
  requests: number;
  terminals: number;
  timeouts: number;
  unanswered: number;
  lines: number;
}

/** mulberry32: a small seeded PRNG (shared by the test generators). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Ev {
  t: number;
  n: number;
  rec: Record<string, unknown>;
}

const BASE = Date.parse('2026-10-01T08:00:00Z');
const MODEL: Record<string, string> = { agent: 'claude-sonnet-5', summarizer: 'claude-haiku-5', naming: 'claude-haiku-5' };

export function generateCapture(opts: GenOptions): { lines: string[]; stats: GenStats } {
  const rnd = mulberry32(opts.seed ?? 42);
  const ids = opts.ids ?? true;
  const [tmin, tmax] = opts.turns ?? [5, 12];
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const hex = (n: number) => {
    let s = '';
    for (let i = 0; i < n; i++) s += Math.floor(rnd() * 16).toString(16);
    return s;
  };
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const events: Ev[] = [];
  let n = 0;
  const stats: GenStats = { sessions: opts.sessions, requests: 0, terminals: 0, timeouts: 0, unanswered: 0, lines: 0 };

  const envelope = (t: number, event: string, session: string, id: string | null, top: Record<string, unknown>, data: Record<string, unknown>) => {
    const rec: Record<string, unknown> = {
      ts: new Date(t).toISOString(),
      lvl: event === 'provider:error' ? 'ERROR' : 'INFO',
      schema: { name: 'amplifier.log', ver: '1.0.0' },
      event,
      session_id: session,
    };
    if (id !== null && ids) rec.request_id = id;
    Object.assign(rec, top);
    rec.data = { parent_id: null, provider: 'anthropic', ...data };
    events.push({ t, n: n++, rec });
  };

  const usage = (caller: string): Record<string, number | null> => {
    const input = caller === 'agent' ? int(8000, 60000) : int(500, 9000);
    const output = int(50, 2500);
    const cache = int(0, input);
    const era = rnd();
    if (era < 0.3) return { input, output, cache_read: cache, cache_write: 0 };
    const u: Record<string, number | null> = { input_tokens: input, output_tokens: output, cache_read_tokens: cache };
    if (era > 0.93) u.output_tokens = null; // stated but unknown
    return u;
  };

  /** One call: request at t, terminal at t + latency (or none). Returns the terminal time. */
  const call = (session: string, caller: string, t: number, latency: number, fate: 'ok' | 'timeout' | 'error' | 'none') => {
    const id = uuid();
    stats.requests++;
    envelope(t, 'llm:request', session, id, {}, { model: MODEL[caller], caller, message_count: int(2, 40), has_system: true });
    if (fate === 'none') {
      stats.unanswered++;
      return t + latency;
    }
    stats.terminals++;
    const statesCaller = rnd() < 0.5 ? { caller } : {};
    if (fate === 'timeout') {
      stats.timeouts++;
      envelope(t + latency, 'provider:error', session, id, { error: { type: 'TimeoutError', msg: `${caller} call timed out` } }, { ...statesCaller, retryable: false, status_code: null });
    } else {
      envelope(
        t + latency,
        'llm:response',
        session,
        id,
        { status: fate, duration_ms: latency, ...(fate === 'error' ? { error: { type: 'APIError', msg: 'overloaded' } } : {}) },
        { model: MODEL[caller], ...statesCaller, ...(fate === 'ok' ? { usage: usage(caller) } : {}) },
      );
    }
    return t + latency;
  };

  const fate = (): 'ok' | 'timeout' | 'error' => {
    const r = rnd();
    return r < 0.07 ? 'timeout' : r < 0.1 ? 'error' : 'ok';
  };

  for (let s = 0; s < opts.sessions; s++) {
    const session = `sess-${String(s).padStart(4, '0')}-${hex(6)}`;
    let t = BASE + s * int(500, 4000);
    envelope(t, 'session:start', session, null, {}, {});
    // The session-naming call, started right after the first agent request.
    call(session, 'naming', t + 2, int(50, 900), rnd() < 0.05 ? 'timeout' : 'ok');
    const turns = int(tmin, tmax);
    for (let k = 0; k < turns; k++) {
      const latency = int(200, 3000);
      // Background summarizer: starts during this agent call, may end after it (or never).
      if (rnd() < 0.35) {
        const start = t + int(1, latency - 1);
        call(session, 'summarizer', start, int(100, 5000), rnd() < 0.04 ? 'none' : fate());
      }
      t = call(session, 'agent', t, latency, fate());
      envelope(t + 1, 'tool:pre', session, null, {}, { tool_name: 'bash', tool_input: { command: 'ls' } });
      t += int(10, 400);
    }
  }
  events.sort((a, b) => a.t - b.t || a.n - b.n);
  const lines = events.map((e) => JSON.stringify(e.rec));
  stats.lines = lines.length;
  return { lines, stats };
}

export function writeGenerated(file: string, opts: GenOptions): GenStats {
  const { lines, stats } = generateCapture(opts);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return stats;
}
