/**
 * A generator of large, realistic amplifier captures for the html size/load test: many sessions,
 * each a run of agent calls with a background summarizer or naming call in flight beside them
 * (so FIFO crosses), some responses lost (orphans), some sessions without ids (fallback pairing),
 * and mostly content events (tool and stream lines the reader counts but never parses).
 * Deterministic for a given size (a fixed-seed PRNG).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { mulberry32 as prng } from '../generate.js';

const MODELS: Array<[string, string]> = [
  ['anthropic', 'claude-sonnet-5'],
  ['anthropic', 'claude-haiku-5'],
  ['openai', 'gpt-6'],
  ['openai', 'gpt-6-mini'],
];

export interface BigCaptureStats {
  bytes: number;
  lines: number;
  sessions: number;
  calls: number;
}

/** Writes about `targetBytes` of capture to `path`. */
export function writeBigCapture(path: string, targetBytes: number, seed = 7): BigCaptureStats {
  const rnd = prng(seed);
  const fd = openSync(path, 'w');
  let clock = Date.parse('2026-09-01T00:00:00Z');
  let buf: string[] = [];
  let bufLen = 0;
  const stats: BigCaptureStats = { bytes: 0, lines: 0, sessions: 0, calls: 0 };
  const filler = 'x'.repeat(1200);
  const emit = (o: object) => {
    const s = `${JSON.stringify(o)}\n`;
    buf.push(s);
    bufLen += s.length;
    stats.lines++;
    if (bufLen > 1 << 20) flush();
  };
  const flush = () => {
    const s = buf.join('');
    writeSync(fd, s);
    stats.bytes += Buffer.byteLength(s);
    buf = [];
    bufLen = 0;
  };
  const line = (event: string, session: string, id: string | null, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const rec: Record<string, unknown> = { ts: new Date(clock).toISOString(), lvl: 'INFO', schema: { name: 'amplifier.log', ver: '1.0.0' }, event, session_id: session };
    if (id !== null) rec.request_id = id;
    Object.assign(rec, extra);
    rec.data = { parent_id: null, ...data };
    emit(rec);
  };
  let n = 0;
  while (stats.bytes + bufLen < targetBytes) {
    const session = `sess-${(++stats.sessions).toString(36).padStart(6, '0')}`;
    const withIds = rnd() > 0.1;
    const calls = 8 + Math.floor(rnd() * 24);
    for (let c = 0; c < calls; c++) {
      const [provider, model] = MODELS[Math.floor(rnd() * 2)]!;
      const id = withIds ? `req-${(++n).toString(16).padStart(10, '0')}` : null;
      clock += 5 + Math.floor(rnd() * 50);
      line('llm:request', session, id, { provider, model, caller: 'agent', message_count: c * 2 + 1 });
      // A background call in flight beside the agent's, answered first: FIFO crosses both.
      let bg: { id: string | null; provider: string; model: string; caller: string } | null = null;
      if (rnd() < 0.15) {
        const [p2, m2] = MODELS[2 + Math.floor(rnd() * 2)]!;
        bg = { id: withIds ? `req-${(++n).toString(16).padStart(10, '0')}` : null, provider: p2, model: m2, caller: rnd() < 0.5 ? 'summarizer' : 'naming' };
        clock += 2;
        line('llm:request', session, bg.id, { provider: bg.provider, model: bg.model, caller: bg.caller });
      }
      const content = 2 + Math.floor(rnd() * 6);
      for (let k = 0; k < content; k++) {
        clock += 1 + Math.floor(rnd() * 20);
        line(k % 2 ? 'tool:post' : 'content_block:delta', session, null, { tool_name: 'bash', tool_input: { command: 'cat file' }, result: filler.slice(0, 400 + Math.floor(rnd() * 800)) });
      }
      if (bg) {
        clock += 10 + Math.floor(rnd() * 400);
        const lost = rnd() < 0.05;
        if (!lost) line('llm:response', session, bg.id, { provider: bg.provider, model: bg.model, caller: bg.caller, usage: { input_tokens: 900, output_tokens: 40 } }, { status: 'ok' });
        stats.calls++;
      }
      clock += 50 + Math.floor(rnd() * 3000 * rnd());
      const r = rnd();
      if (r < 0.01) {
        // lost response: an orphan request
      } else if (r < 0.03) {
        line('provider:error', session, id, { provider, caller: 'agent', retryable: false }, { lvl: 'ERROR', error: { type: 'TimeoutError', msg: 'request timed out' } });
      } else {
        line('llm:response', session, id, { provider, model, caller: 'agent', usage: { input_tokens: 40_000, output_tokens: 1500 } }, { status: 'ok', duration_ms: 100 });
      }
      stats.calls++;
    }
  }
  flush();
  closeSync(fd);
  return stats;
}
