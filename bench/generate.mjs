#!/usr/bin/env node
/**
 * A generator of realistic Amplifier `events.jsonl` captures of any size (deterministic: seeded).
 *
 *   node bench/generate.mjs --size 300 --out bench/out/capture-300mb.jsonl [--seed 1]
 *
 * Shape (docs/design.md §3.1): sessions in the logging hook's envelope (`ts`, `lvl`, `schema`,
 * `event`, lifted `session_id`/`request_id`/`status`/`duration_ms`/`error`, the rest under `data`,
 * written like Python's json.dumps with ", " / ": " separators), one old-era session in ten in the
 * flat `{event, timestamp, data}` shape with the legacy `llm:request:raw` tier. Each session runs a
 * sequential agent loop (prompt → provider:request → llm:request → content/thinking blocks →
 * llm:response → tool calls), with overlapping background calls (session naming, summarizer) whose
 * responses cross the main call's, retries (provider:retry), throttles, error responses followed by
 * the orchestrator's provider:error, timeouts, orphans (a crash leaves a request open; a response
 * whose request was never written), partial request_id coverage (all / none / some sessions), a
 * doubly registered logger now and then (every line twice), and the bulk real files have: content
 * and tool events of 2–200 kB and, on a quarter of the llm:request lines, a `raw` payload of
 * 5–200 kB. About 1 line in 3 is a family line; bytes are dominated by content events.
 */
import { openSync, writeSync, closeSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { prng, pyDumps } from './shapes.mjs';

const SHAPES = ['mix', 'line-heavy', 'raw-heavy'];

function args() {
  const a = { size: 300, seed: 1, out: null, shape: 'mix' };
  const v = process.argv.slice(2);
  for (let i = 0; i < v.length; i++) {
    if (v[i] === '--size') a.size = Number(v[++i]);
    else if (v[i] === '--seed') a.seed = Number(v[++i]);
    else if (v[i] === '--out') a.out = v[++i];
    else if (v[i] === '--shape') a.shape = v[++i];
    else if (v[i] === '-h' || v[i] === '--help') {
      console.log(`usage: generate.mjs --size MB [--seed N] [--shape ${SHAPES.join('|')}] [--out FILE]`);
      process.exit(0);
    } else throw new Error(`unknown argument ${v[i]}`);
  }
  if (!(a.size > 0)) throw new Error('--size must be a positive number of MB');
  if (!SHAPES.includes(a.shape)) throw new Error(`--shape must be one of ${SHAPES.join(', ')}`);
  if (!a.out) a.out = `bench/out/${a.shape === 'mix' ? 'capture' : a.shape}-${a.size}mb-s${a.seed}.jsonl`;
  return a;
}

const opt = args();
const rnd = prng(opt.seed);
/**
 * Shapes (issue 13): `mix` (the default above: ~14 kB lines on average); `line-heavy` (~400 B
 * lines: raw capture off, the answer streamed as short `content_block:delta` lines, short tool
 * outputs); `raw-heavy` (a quarter of llm:request lines carry a 5–200 kB `data.raw`, content
 * blocks and tool outputs of 2–10 kB).
 */
const SHAPE = {
  mix: { raw: true, deltas: null, content: [2000, 200000], tool: [2000, 200000] },
  'line-heavy': { raw: false, deltas: [4, 40], content: null, tool: [60, 600] },
  'raw-heavy': { raw: true, deltas: null, content: [2000, 10000], tool: [2000, 10000] },
}[opt.shape];
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const chance = (p) => rnd() < p;
/** Log-uniform size in [lo, hi] bytes: many small, some huge. */
const logSize = (lo, hi) => Math.round(Math.exp(Math.log(lo) + rnd() * (Math.log(hi) - Math.log(lo))));
const hex = (n) => {
  let s = '';
  for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(rnd() * 16)];
  return s;
};
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;

// A pool of text to slice content from: words, code, newlines, quotes, tabs, non-ASCII.
const WORDS = (
  'the of and to in is that for it with as on was be at by this are from or an have not but which function return ' +
  'const let value error file path request response model token session tool result data line import export class ' +
  'if else await async true false null undefined string number object array map set get push length index ' +
  'café naïve — “quoted” ü ø 東京 ★ λ → ✓'
).split(' ');
const POOL = (() => {
  const parts = [];
  let n = 0;
  while (n < 1 << 20) {
    const r = rnd();
    let w = pick(WORDS);
    if (r < 0.06) w += '\n';
    else if (r < 0.08) w = `"${w}"`;
    else if (r < 0.09) w = `\t${w}`;
    else if (r < 0.095) w = `{${w}: [1, 2]}`;
    else if (r < 0.097) w = `C:\\path\\${w}`;
    parts.push(w);
    n += w.length + 1;
  }
  return parts.join(' ');
})();
const text = (n) => {
  const at = int(0, POOL.length - n - 1);
  return POOL.slice(at, at + n);
};
/** Text of about n JSON-encoded bytes. */
const bulk = (n) => text(Math.max(1, Math.floor(n * 0.9)));

const PROVIDERS = [
  { provider: 'anthropic', models: ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'] },
  { provider: 'openai', models: ['gpt-5', 'gpt-5-mini'] },
  { provider: 'gemini', models: ['gemini-2.5-pro'] },
];

let clock = Date.parse('2026-04-01T08:00:00Z');
const tick = (ms) => (clock += ms);
/** Kernel time with ns precision, like the newest logging hook. */
const isoNs = (t) => new Date(t).toISOString().replace('Z', `${String(int(0, 999999)).padStart(6, '0')}+00:00`);
const isoMs = (t) => new Date(t).toISOString().replace('Z', '+00:00');

// Output with a byte budget.
const target = Math.round(opt.size * 1024 * 1024);
mkdirSync(path.dirname(opt.out), { recursive: true });
const fd = openSync(opt.out, 'w');
let written = 0;
let lines = 0;
let family = 0;
let buf = [];
let bufLen = 0;
function flush() {
  if (!buf.length) return;
  writeSync(fd, buf.join(''));
  buf = [];
  bufLen = 0;
}
function put(s) {
  const b = Buffer.byteLength(s) + 1;
  buf.push(s, '\n');
  bufLen += b;
  written += b;
  lines++;
  if (bufLen > 8 << 20) flush();
}

/** A session: its envelope, id coverage, and its loggers. */
function session() {
  const sid = uuid();
  const flat = chance(0.1); // old era, context-intelligence style flat envelope
  const coverage = flat ? 'none' : pick(['all', 'all', 'none', 'some']);
  const twice = chance(0.04); // a logger registered twice
  const main = pick(PROVIDERS);
  const model = pick(main.models);

  const emit = (event, fields) => {
    // fields: {request_id, status, duration_ms, error, data}
    const t = isoNs(clock);
    let line;
    if (flat) {
      const data = { ...fields.data, session_id: sid };
      for (const k of ['request_id', 'status', 'duration_ms', 'error']) if (fields[k] !== undefined) data[k] = fields[k];
      data.timestamp = isoMs(clock);
      line = JSON.stringify({ data, event, timestamp: isoMs(clock) }); // compact, sort_keys-ish
    } else {
      const lvl = fields.status === 'error' || fields.error !== undefined || event.includes('error') ? 'ERROR' : 'INFO';
      const rec = { ts: t, lvl, schema: { name: 'amplifier.log', ver: '1.0.0' }, event };
      if (fields.status !== undefined) rec.status = fields.status;
      if (fields.duration_ms !== undefined) rec.duration_ms = fields.duration_ms;
      if (fields.error !== undefined) rec.error = fields.error;
      if (fields.request_id !== undefined) rec.request_id = fields.request_id;
      rec.session_id = sid;
      rec.data = fields.data ?? {};
      line = pyDumps(rec);
    }
    if (event.startsWith('llm:') || event.startsWith('provider:')) family++;
    put(line);
    if (twice) put(line);
  };
  const rid = () => {
    if (coverage === 'all') return uuid();
    if (coverage === 'some') return chance(0.5) ? uuid() : undefined;
    return undefined;
  };

  emit('session:start', { data: { parent_id: null, bundle: 'foundation', cwd: '/work/project' } });
  const turns = int(2, 12);
  let iteration = 0;
  for (let turn = 0; turn < turns && written < target; turn++) {
    tick(int(2000, 60000));
    emit('prompt:submit', { data: { prompt: bulk(logSize(40, 4000)) } });
    const steps = int(1, 5);
    for (let step = 0; step < steps && written < target; step++) {
      iteration++;
      tick(int(5, 50));
      emit('provider:request', { data: { provider: main.provider, iteration } });
      // The main call.
      const call = { id: rid(), provider: main.provider, model };
      const reqData = {
        parent_id: null,
        provider: main.provider,
        model,
        message_count: 2 * iteration,
        has_system: true,
        thinking_enabled: true,
        thinking_budget: 16000,
      };
      const withRaw = SHAPE.raw && chance(0.25);
      if (withRaw && !flat) reqData.raw = rawPayload(logSize(5000, 200000), model);
      emit('llm:request', { request_id: call.id, data: reqData });
      if (flat && withRaw) emit('llm:request:raw', { data: { provider: main.provider, raw: rawPayload(logSize(5000, 200000), model) } });

      // A background call that overlaps the main one (session naming, summarizer).
      let bg = null;
      if (chance(0.2)) {
        const purpose = pick(['session-naming', 'summarizer', 'title']);
        const bp = pick(PROVIDERS);
        bg = { id: rid(), provider: bp.provider, model: bp.models[bp.models.length - 1], purpose };
        tick(int(1, 30));
        emit('llm:request', {
          request_id: bg.id,
          data: { parent_id: null, provider: bg.provider, model: bg.model, purpose, message_count: 1, has_system: false },
        });
      }

      // Retries and throttles between request and outcome.
      if (chance(0.05)) {
        tick(int(500, 5000));
        emit('provider:retry', { request_id: call.id, data: { provider: call.provider, attempt: 1, delay: 2.5, error_type: 'overloaded_error' } });
      }
      if (chance(0.02)) emit('provider:throttle', { request_id: call.id, data: { provider: call.provider, wait_seconds: 1.2 } });

      // Streaming content of the answer: the bulk.
      emit('content_block:start', { data: { block_type: 'thinking', index: 0 } });
      if (SHAPE.deltas) {
        // Line-heavy: the answer streamed as many short deltas, blocks closed without their text.
        const n = int(SHAPE.deltas[0], SHAPE.deltas[1]);
        for (let d = 0; d < n; d++) emit('content_block:delta', { data: { index: d & 1, delta: { type: 'text_delta', text: bulk(int(20, 240)) } } });
        emit('content_block:end', { data: { block_index: 0, total_blocks: 2 } });
      } else {
        if (chance(0.5)) emit('thinking:final', { data: { text: bulk(logSize(SHAPE.content[0], SHAPE.content[1])) } });
        emit('content_block:end', { data: { block_index: 0, total_blocks: 2, block: { type: 'text', text: bulk(logSize(SHAPE.content[0], SHAPE.content[1])) } } });
      }
      if (chance(0.01)) {
        // A tool output that quotes log lines: a needle inside a content string.
        emit('tool:post', { data: { tool_name: 'grep', result: { output: `{"event": "llm:request", "x": 1}\n` + bulk(logSize(2000, 20000)) } } });
      }

      // The background call's answer crosses the main call's when both are in flight.
      const bgFirst = bg && chance(0.5);
      if (bg && bgFirst) answer(bg, emit);
      const crash = chance(0.005);
      if (crash) {
        // A crash: the main request stays open (orphan) and the session ends.
        if (bg && !bgFirst) answer(bg, emit);
        break;
      }
      answer(call, emit);
      if (bg && !bgFirst) answer(bg, emit);
      if (chance(0.003)) {
        // A response whose request was never written (logger mounted late).
        emit('llm:response', { request_id: rid(), status: 'ok', duration_ms: int(100, 9000), data: { provider: call.provider, model, usage: usage() } });
      }

      // Tool calls.
      const tools = int(0, 3);
      for (let k = 0; k < tools; k++) {
        const tool = pick(['read_file', 'bash', 'grep', 'edit_file', 'web_fetch']);
        emit('tool:pre', { data: { tool_name: tool, tool_input: { path: `/work/src/${hex(6)}.ts` } } });
        tick(int(10, 3000));
        emit('tool:post', { data: { tool_name: tool, result: { success: true, output: bulk(logSize(SHAPE.tool[0], SHAPE.tool[1])) } } });
      }
    }
    emit('prompt:complete', { data: { response_len: int(10, 9000) } });
  }
  emit('session:end', { data: { status: 'completed' } });
}

function usage() {
  return { input_tokens: int(1, 200000), output_tokens: int(1, 8000), cache_read_tokens: int(0, 150000), cache_write_tokens: int(0, 20000) };
}

/** The outcome of a call: ok, an error (followed by the orchestrator's provider:error), or a timeout. */
function answer(c, emit) {
  tick(int(300, 30000));
  const r = rnd();
  const data = { parent_id: null, provider: c.provider, model: c.model, usage: usage() };
  if (c.purpose) data.purpose = c.purpose;
  if (r < 0.03) {
    emit('llm:response', { request_id: c.id, status: 'error', duration_ms: int(100, 30000), error: 'overloaded_error: Overloaded', data: { parent_id: null, provider: c.provider, model: c.model } });
    emit('provider:error', { data: { provider: c.provider, error: { type: 'overloaded_error', msg: 'Overloaded' } } });
  } else if (r < 0.045) {
    emit('provider:error', { request_id: c.id, data: { provider: c.provider, error: { type: 'timeout', msg: 'Request timed out after 600s' } } });
  } else {
    emit('llm:response', { request_id: c.id, status: 'ok', duration_ms: int(300, 30000), data });
  }
}

/** The provider's raw request: messages with long text. */
function rawPayload(n, model) {
  const messages = [];
  let left = n;
  while (left > 0) {
    const k = Math.min(left, logSize(200, 40000));
    messages.push({ role: chance(0.5) ? 'user' : 'assistant', content: [{ type: 'text', text: bulk(k) }] });
    left -= k + 60;
  }
  return { model, max_tokens: 32000, system: [{ type: 'text', text: bulk(300) }], messages, stream: true };
}

while (written < target) session();
flush();
closeSync(fd);
console.error(`wrote ${opt.out}: ${(written / 1048576).toFixed(1)} MB, ${lines} lines, ${family} family events`);
