#!/usr/bin/env node
/**
 * Streaming generators of adversarial captures (issue 7). Everything is written to stdout in ~1 MB
 * writes with back-pressure, so nothing is held in memory and nothing needs to be kept in git:
 *
 *   node bench/adversarial/gen.mjs open-calls N     N llm:request lines, never answered (unique ids)
 *   node bench/adversarial/gen.mjs huge-line BYTES   one needle line of BYTES bytes, then one normal call
 *   node bench/adversarial/gen.mjs doc-line BYTES    one minified JSON array of calls on a single line of BYTES bytes
 *   node bench/adversarial/gen.mjs scopes N          N sessions, one answered call each
 *   node bench/adversarial/gen.mjs deep N DEPTH      N needle lines whose request_id / data nest DEPTH levels
 *   node bench/adversarial/gen.mjs long-strings N LEN  N calls whose session/provider/model/caller are LEN chars
 *   node bench/adversarial/gen.mjs stale-open N M   N calls never answered (another model), then M calls paired by id, one scope
 *   node bench/adversarial/gen.mjs many-scopes N    N sessions, one answered call each, minimal lines (no times)
 */
const [mode, a = '0', b = '0'] = process.argv.slice(2);
const out = process.stdout;
let buf = [];
let size = 0;

async function write(s) {
  buf.push(s);
  size += s.length;
  if (size >= 1 << 20) await flush();
}
async function flush() {
  if (size === 0) return;
  const text = buf.join('');
  buf = [];
  size = 0;
  if (!out.write(text)) await new Promise((r) => out.once('drain', r));
}
out.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

const T0 = Date.parse('2026-09-01T00:00:00Z');
const ts = (k) => new Date(T0 + k).toISOString();

async function main() {
  switch (mode) {
    case 'open-calls': {
      const n = Number(a);
      for (let k = 0; k < n; k++) {
        await write(`{"ts":"${ts(k)}","event":"llm:request","session_id":"s${k % 8}","request_id":"req-${k}","data":{"provider":"anthropic","model":"m","caller":"agent"}}\n`);
      }
      break;
    }
    case 'huge-line': {
      let left = Number(a);
      const head = '{"event":"llm:request","session_id":"s","data":{"blob":"';
      const tail = '"}}\n';
      await write(head);
      left -= head.length + tail.length;
      const piece = 'A'.repeat(1 << 20);
      while (left > 0) {
        const n = Math.min(left, piece.length);
        await write(n === piece.length ? piece : piece.slice(0, n));
        left -= n;
      }
      await write(tail);
      await write(`{"ts":"${ts(0)}","event":"llm:request","session_id":"s","request_id":"r1","data":{"provider":"p"}}\n`);
      await write(`{"ts":"${ts(5)}","event":"llm:response","session_id":"s","request_id":"r1","data":{"provider":"p"}}\n`);
      break;
    }
    case 'doc-line': {
      // A minified JSON document: one physical line of BYTES bytes holding an array of calls.
      let left = Number(a);
      let k = 0;
      await write('[');
      left--;
      while (left > 300) {
        const r = `{"ts":"${ts(k)}","event":"llm:${k % 2 ? 'response' : 'request'}","session_id":"s","request_id":"r${k >> 1}","data":{"provider":"p","blob":"${'z'.repeat(800)}"}},`;
        await write(r);
        left -= r.length;
        k++;
      }
      await write(`{"event":"session:end"}]\n`);
      break;
    }
    case 'scopes': {
      const n = Number(a);
      for (let k = 0; k < n; k++) {
        await write(`{"ts":"${ts(2 * k)}","event":"llm:request","session_id":"session-${k}","request_id":"r${k}","data":{"provider":"anthropic","model":"m"}}\n`);
        await write(`{"ts":"${ts(2 * k + 1)}","event":"llm:response","session_id":"session-${k}","request_id":"r${k}","data":{"provider":"anthropic","model":"m"}}\n`);
      }
      break;
    }
    case 'deep': {
      const n = Number(a);
      const d = Number(b);
      const arr = '['.repeat(d) + ']'.repeat(d);
      const obj = '{"a":'.repeat(d) + '1' + '}'.repeat(d);
      for (let k = 0; k < n; k++) {
        await write(`{"event":"llm:request","session_id":"s${k}","request_id":${arr},"data":${obj}}\n`);
        await write(`{"event":"llm:response","session_id":${obj}}\n`);
        await write(`{"event":"llm:x","unclosed":${'['.repeat(d)}\n`);
      }
      break;
    }
    case 'long-strings': {
      const n = Number(a);
      const len = Number(b);
      for (let k = 0; k < n; k++) {
        const s = `${k}-`.padEnd(len, 'x');
        await write(`{"event":"llm:request","session_id":"${s}","data":{"provider":"${s}","model":"${s}","caller":"${s}"}}\n`);
      }
      break;
    }
    case 'stale-open': {
      // The signature shadow's worst case (issue 16 item 8): every terminal's signature agrees with
      // none of the N stale requests ahead of it, so a scan from the oldest would visit them all.
      const n = Number(a);
      const m = Number(b);
      for (let k = 0; k < n; k++) {
        await write(`{"ts":"${ts(k)}","event":"llm:request","session_id":"s","request_id":"stale-${k}","data":{"provider":"p","model":"stale-${k % 7}","caller":"agent"}}\n`);
      }
      for (let k = 0; k < m; k++) {
        await write(`{"ts":"${ts(n + 2 * k)}","event":"llm:request","session_id":"s","request_id":"r-${k}","data":{"provider":"p","model":"m","caller":"agent"}}\n`);
        await write(`{"ts":"${ts(n + 2 * k + 1)}","event":"llm:response","session_id":"s","request_id":"r-${k}","data":{"provider":"p","model":"m","caller":"agent"}}\n`);
      }
      break;
    }
    case 'many-scopes': {
      const n = Number(a);
      for (let k = 0; k < n; k++) {
        await write(`{"event":"llm:request","session_id":"s${k}","request_id":"r","data":{"provider":"p","model":"m"}}\n`);
        await write(`{"event":"llm:response","session_id":"s${k}","request_id":"r","data":{"provider":"p","model":"m"}}\n`);
      }
      break;
    }
    default:
      process.stderr.write('usage: gen.mjs open-calls N | huge-line BYTES | doc-line BYTES | scopes N | deep N DEPTH | long-strings N LEN | stale-open N M | many-scopes N\n');
      process.exit(2);
  }
  await flush();
}

await main();
