#!/usr/bin/env node
/**
 * Captures made of calls (deterministic by seed, sized by lines): the shapes where most lines are
 * call events, which `bench/generate.mjs`'s mostly-skipped shapes do not exercise. Used by
 * `bench/run.mjs` (the call-dense table), `test/growth.test.ts` (doubling must not more than
 * double the time) and by hand:
 *
 *   node bench/shapes.mjs SHAPE --lines N [--seed S] --dir DIR     writes the shape's files into DIR
 *   node bench/shapes.mjs --list                                    the shapes, one a line
 *
 * Shapes (docs/performance.md, "Call-dense shapes"):
 *   amp-dD-IDS      Amplifier envelope, D % of lines (0, 10, 30, 60, 100) are llm:request / llm:response /
 *                   provider:error, the rest content deltas and tool events; request_id on all / some /
 *                   none of the sessions (IDS = all | some | none); ~400 lines a session, 4 sessions
 *                   interleaved, a background call overlapping the main one now and then (answers cross)
 *   one-session     every line a call line with request_id, all in one session
 *   sessions        many scopes: 2 calls (4 call lines, 6 with its start and end) a session, 64 interleaved (about lines / 6 sessions)
 *   jsonrpc-inorder JSON-RPC 2.0 tools/call transcript, up to 8 in flight, replies in request order
 *   jsonrpc-ooo     the same, each reply answers a random one of the 8 oldest open requests
 *                   (both: ids numeric and string, notifications between, some error replies)
 *   batch           OpenAI Batch input + output files; output order shuffled within each 50 000-request
 *                   batch, 1 % expired (no output line), 1 % failed
 *   assay           one Assay run: decision records + caller log + upstream log (lines / 3 calls)
 *   assay-decisions the decision records alone
 *   custom6        a custom profile with 6 signature fields (the most a profile may name): a quarter stale requests never answered,
 *                   then calls whose terminals carry no id and half the signature fields
 *
 * Every shape returns its files, the CLI arguments that read them (`args`, profile options
 * included), its call events (requests + terminals) and a trace target (`PATH:LINE` of a terminal
 * in the middle of the run), so each command can be run on it as a user would.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** mulberry32: a small seeded PRNG (the same as bench/generate.mjs). */
export function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A line writer with an 8 MiB buffer; counts lines so a shape can name a `PATH:LINE`. */
class Out {
  constructor(file) {
    this.file = file;
    this.fd = openSync(file, 'w');
    this.buf = [];
    this.len = 0;
    this.lines = 0;
  }
  put(s) {
    this.buf.push(s);
    this.len += s.length + 1;
    this.lines++;
    if (this.len > 8 << 20) this.flush();
    return this.lines;
  }
  flush() {
    if (this.buf.length) writeSync(this.fd, this.buf.join('\n') + '\n');
    this.buf = [];
    this.len = 0;
  }
  close() {
    this.flush();
    closeSync(this.fd);
  }
}

function tools(rnd) {
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const chance = (p) => rnd() < p;
  const hex = (n) => {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(rnd() * 16)];
    return s;
  };
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const WORDS = 'the of and to in is that for it with as on request response model token session tool result data line café — ✓'.split(' ');
  const words = (n) => {
    const w = [];
    for (let i = 0; i < n; i++) w.push(pick(WORDS));
    return w.join(' ');
  };
  return { int, pick, chance, hex, uuid, words };
}

/** json.dumps(obj, ensure_ascii=False): ", " and ": " separators, as the Amplifier logging hook writes. */
export function pyDumps(v) {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(pyDumps).join(', ') + ']';
  const parts = [];
  for (const k of Object.keys(v)) if (v[k] !== undefined) parts.push(JSON.stringify(k) + ': ' + pyDumps(v[k]));
  return '{' + parts.join(', ') + '}';
}

const T0 = Date.parse('2026-04-01T08:00:00Z');
const iso = (ms) => new Date(ms).toISOString().replace('Z', '+00:00');
const PROVIDERS = [
  ['anthropic', 'claude-sonnet-4-5'],
  ['anthropic', 'claude-haiku-4-5'],
  ['openai', 'gpt-5-mini'],
];

/**
 * Amplifier sessions. `density` is the share of lines that are call lines; `ids` all | some | none
 * (some: every other session); `perSession` lines a session; `live` sessions interleaved.
 */
function amplifier(out, lines, seed, { density, ids, perSession, live, callsPerSession = Infinity }) {
  const rnd = prng(seed);
  const { int, pick, chance, uuid, words } = tools(rnd);
  let clock = T0;
  let calls = 0;
  let sessionNo = 0;
  let mid = null; // the line of a terminal in the middle
  const fillerPerCall = density > 0 ? (1 - density) / density : Infinity;
  const newSession = () => {
    const no = sessionNo++;
    const withIds = ids === 'all' || (ids === 'some' && no % 2 === 0);
    return { sid: uuid(), withIds, open: [], left: perSession, callsLeft: callsPerSession, started: false, filler: 0, ended: false };
  };
  const emit = (s, event, fields = {}) => {
    clock += int(1, 40);
    const rec = { ts: iso(clock), lvl: event.includes('error') || fields.status === 'error' ? 'ERROR' : 'INFO', schema: { name: 'amplifier.log', ver: '1.0.0' }, event };
    if (fields.status !== undefined) rec.status = fields.status;
    if (fields.duration_ms !== undefined) rec.duration_ms = fields.duration_ms;
    if (fields.request_id !== undefined) rec.request_id = fields.request_id;
    rec.session_id = s.sid;
    rec.data = fields.data ?? {};
    s.left--;
    if (event === 'llm:request' || event === 'llm:response' || event === 'provider:error') calls++;
    return out.put(pyDumps(rec));
  };
  const filler = (s) => {
    const r = rnd();
    if (r < 0.7) emit(s, 'content_block:delta', { data: { index: 0, delta: { type: 'text_delta', text: words(int(4, 30)) } } });
    else if (r < 0.85) emit(s, 'tool:pre', { data: { tool_name: pick(['bash', 'read_file', 'grep']), tool_input: { path: `/work/src/${int(1, 999)}.ts` } } });
    else emit(s, 'tool:post', { data: { tool_name: 'bash', result: { success: true, output: words(int(5, 40)) } } });
  };
  const request = (s) => {
    const [provider, model] = s.open.length && chance(0.5) ? PROVIDERS[2] : pick(PROVIDERS.slice(0, 2));
    const c = { id: s.withIds ? uuid() : undefined, provider, model, at: clock };
    s.open.push(c);
    emit(s, 'llm:request', { request_id: c.id, data: { parent_id: null, provider, model, message_count: int(1, 60), has_system: true } });
  };
  const answer = (s, k) => {
    const c = s.open.splice(k, 1)[0];
    const r = rnd();
    let line;
    if (r < 0.01) line = emit(s, 'provider:error', { request_id: c.id, data: { provider: c.provider, error: { type: 'timeout', msg: 'Request timed out' } } });
    else {
      const failed = r < 0.03;
      line = emit(s, 'llm:response', {
        request_id: c.id,
        status: failed ? 'error' : 'ok',
        duration_ms: clock - c.at,
        data: { parent_id: null, provider: c.provider, model: c.model, usage: { input_tokens: int(1, 90000), output_tokens: int(1, 4000) } },
      });
    }
    if (mid === null && out.lines >= lines / 2) mid = line;
  };
  const active = [];
  while (out.lines < lines) {
    while (active.length < live) active.push(newSession());
    const k = Math.floor(rnd() * active.length);
    const s = active[k];
    if (!s.started) {
      s.started = true;
      emit(s, 'session:start', { data: { parent_id: null, bundle: 'foundation' } });
      continue;
    }
    if (s.left <= 0 || s.callsLeft <= 0) {
      // The session ends: its open calls are answered first (now and then one stays open: a crash).
      if (s.open.length && !chance(0.01)) answer(s, 0);
      else {
        emit(s, 'session:end', { data: { status: 'completed' } });
        active.splice(k, 1);
      }
      continue;
    }
    if (s.filler > 0 || density === 0) {
      filler(s);
      s.filler--;
      continue;
    }
    // A call line: answer an open call (the newest first now and then: answers cross), or open one.
    if (s.open.length >= 2 || (s.open.length === 1 && chance(0.75))) answer(s, s.open.length > 1 && chance(0.5) ? s.open.length - 1 : 0);
    else {
      request(s);
      s.callsLeft--;
    }
    if (chance(0.003)) emit(s, 'provider:retry', { request_id: s.open[0]?.id, data: { provider: 'anthropic', attempt: 1, delay: 2.5 } });
    // Fillers after this call line, so the share of call lines is `density` on average.
    if (fillerPerCall > 0) s.filler = Math.floor(fillerPerCall * 2 * rnd() + 0.5);
  }
  return { calls, mid };
}

function jsonrpc(out, lines, seed, ooo) {
  const rnd = prng(seed);
  const { int, pick, chance, words } = tools(rnd);
  const open = [];
  let next = 1;
  let calls = 0;
  let mid = null;
  const TOOLS = ['read_file', 'search', 'github.add_deploy_key', 'run_query', 'list_dir', 'fetch_url'];
  out.put('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"driver","version":"1"}}}');
  out.put('{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"server","version":"1"}}}');
  out.put('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  while (out.lines < lines) {
    if (chance(0.08)) {
      out.put(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: `p${int(1, 99)}`, progress: int(1, 100), total: 100 } }));
      continue;
    }
    if (open.length < 8 && (open.length === 0 || chance(0.5))) {
      const k = next++;
      // Ids: numbers and strings alternate; the string of an odd number is another id than the number.
      const id = k % 2 ? String(k) : k;
      open.push(id);
      calls++;
      out.put(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: pick(TOOLS), arguments: { path: `/srv/${int(1, 9999)}`, q: words(int(1, 6)) } } }));
    } else {
      const at = ooo ? Math.floor(rnd() * Math.min(8, open.length)) : 0;
      const id = open.splice(at, 1)[0];
      calls++;
      const line = chance(0.03)
        ? out.put(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } }))
        : out.put(JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: words(int(3, 20)) }], isError: false } }));
      if (mid === null && out.lines >= lines / 2) mid = line;
    }
  }
  return { calls, mid };
}

function batch(inp, outp, lines, seed) {
  const rnd = prng(seed);
  const { int, chance, hex, words } = tools(rnd);
  const n = Math.max(1, Math.floor(lines / 2));
  const BATCH = 50_000;
  let calls = 0;
  let mid = null;
  for (let b = 0; b < n; b += BATCH) {
    const ids = [];
    for (let k = b; k < Math.min(n, b + BATCH); k++) {
      const custom = `request-${k}`;
      calls++;
      inp.put(JSON.stringify({ custom_id: custom, method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You are a helpful assistant.' }, { role: 'user', content: words(int(3, 25)) }], max_tokens: 1000 } }));
      if (!chance(0.01)) ids.push(custom);
    }
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [ids[i], ids[j]] = [ids[j], ids[i]];
    }
    for (const custom of ids) {
      calls++;
      const failed = chance(0.01);
      const rec = failed
        ? { id: `batch_req_${hex(24)}`, custom_id: custom, response: { status_code: 500, request_id: hex(32), body: { error: { message: 'server error', type: 'server_error' } } }, error: null }
        : {
            id: `batch_req_${hex(24)}`,
            custom_id: custom,
            response: {
              status_code: 200,
              request_id: hex(32),
              body: { id: `chatcmpl-${hex(12)}`, object: 'chat.completion', created: 1711652795, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: words(int(3, 30)) }, finish_reason: 'stop' }], usage: { prompt_tokens: int(10, 900), completion_tokens: int(1, 900), total_tokens: 1000 } },
            },
            error: null,
          };
      const line = outp.put(JSON.stringify(rec));
      if (mid === null && outp.lines >= n / 2) mid = line;
    }
  }
  return { calls, mid };
}

const REASONS = ['no_declared_allowance', 'unclassified_tool_call', 'credential_scope_insufficient', 'manifest_drifted_since_approval'];
const NON_CLAIMS = [
  'policy decision only; does not assert or verify the upstream side effect (stays asserted, E9 ladder)',
  'an allow is the decision to forward; it does not assert the call reached or was performed by the upstream (a transport failure surfaces as proxy_failed, not here)',
  'credential referenced by alias only, never the token or declared scopes',
  'deny is fail-closed caution and allow is a policy decision — neither is a maliciousness verdict',
  'not the observation artifact (assay.mcp_manifest_observed.v0) and not the mechanism artifact (assay.enforcement_health.v0)',
];

/** One Assay run (docs/assay.md): the caller's calls, one decision record each, the allowed ones upstream. */
function assay(caller, decisions, upstream, calls, seed) {
  const rnd = prng(seed);
  const { int, pick, chance, hex } = tools(rnd);
  const hello = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"driver","version":"1"}}}';
  for (const o of [caller, upstream].filter(Boolean)) {
    o.put(hello);
    o.put('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  }
  upstream?.put('{"jsonrpc":"2.0","id":"assay-establish-1","method":"tools/list"}');
  caller?.put('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
  const TOOLS = [
    ['github.add_deploy_key', 'github_deploy_key', 'create'],
    ['github.create_deploy_key', 'github_deploy_key', 'create'],
    ['workspace.add_member', 'workspace_member', 'add'],
    ['misc.do_thing', null, null],
  ];
  let events = 0;
  let mid = null;
  for (let k = 2; k < calls + 2; k++) {
    const [tool, cls, verb] = pick(TOOLS);
    const corr = `corr-${k}`;
    const args = { owner: 'acme', repo: `repo-${int(1, 50)}` };
    const msg = JSON.stringify({ jsonrpc: '2.0', id: k, method: 'tools/call', params: { name: tool, arguments: args, _meta: { 'assay.correlation_id': corr } } });
    if (caller) {
      caller.put(msg);
      events++;
    }
    const allow = cls !== null && !chance(0.3);
    const reason = allow ? 'allow' : cls === null ? 'unclassified_tool_call' : pick(REASONS.filter((r) => r !== 'unclassified_tool_call'));
    const rec = {
      schema: 'assay.enforcement_decision.v0',
      caller: { id: 'ci-agent' },
      correlation_id: corr,
      tool: { name: tool, action_class: cls },
      action: cls ? { verb, resource_type: cls, target: { provider: 'github', owner: 'acme', repo: args.repo }, target_digest: `sha256:${hex(64)}` } : { verb: null, resource_type: null, target: null, target_digest: null },
      decision: allow ? 'allow' : 'deny',
      reason,
      fail_closed: !allow,
      drift_state: allow ? 'satisfied' : reason === 'manifest_drifted_since_approval' ? 'drifted' : 'not_evaluated',
      credential_alias: 'gh-deploy',
      non_claims: NON_CLAIMS,
    };
    const line = decisions.put(JSON.stringify(rec));
    events++;
    if (mid === null && k >= calls / 2) mid = line;
    if (upstream) {
      // Allowed calls arrive (one in 200 does not); a denied one arrives now and then (a bypass).
      if ((allow && !chance(0.005)) || (!allow && chance(0.001))) {
        upstream.put(msg);
        events++;
      }
      if (chance(0.0005)) {
        upstream.put(JSON.stringify({ jsonrpc: '2.0', id: 1_000_000 + k, method: 'tools/call', params: { name: 'github.delete_repo', arguments: { owner: 'acme', repo: 'prod-app' }, _meta: { 'assay.correlation_id': `corr-${1_000_000 + k}` } } }));
        events++;
      }
    }
  }
  return { calls: events, mid };
}

const SIG6 = Array.from({ length: 6 }, (_, i) => `f${i}`);
/** The custom profile of `custom6`: 6 signature fields (the most a profile may name), no id. */
export const CUSTOM6_PROFILE = {
  name: 'sig6',
  channel: 'calls',
  role: { path: 'kind', request: ['req'], terminal: ['resp'] },
  scope: 'conn',
  time: 'at',
  signature: SIG6,
  status: 'status',
};

function custom6(out, lines, seed) {
  const rnd = prng(seed);
  const { int } = tools(rnd);
  const stale = Math.floor(lines / 4);
  let clock = T0;
  let calls = 0;
  let mid = null;
  const fields = (k) => {
    const o = {};
    for (const f of SIG6) o[f] = `v${int(0, 3)}`;
    o.f0 = `c${k}`;
    return o;
  };
  for (let k = 0; k < stale; k++) {
    out.put(JSON.stringify({ kind: 'req', conn: 'c1', at: new Date((clock += 3)).toISOString(), ...fields(k), f1: 'stale' }));
    calls++;
  }
  for (let k = stale; out.lines < lines; k++) {
    const f = fields(k);
    out.put(JSON.stringify({ kind: 'req', conn: 'c1', at: new Date((clock += 3)).toISOString(), ...f }));
    // The terminal states half the fields (a random half: many distinct masks), never f0 or f1.
    const t = { kind: 'resp', conn: 'c1', at: new Date((clock += 3)).toISOString(), status: 'ok' };
    for (const name of SIG6.slice(2)) if (rnd() < 0.5) t[name] = f[name];
    const line = out.put(JSON.stringify(t));
    calls += 2;
    if (mid === null && out.lines >= lines / 2) mid = line;
  }
  return { calls, mid };
}

/** Every shape: its N in `npm run bench` (lines; 2N is run too) and how to write it. */
export const SHAPES = {};
for (const d of [0, 10, 30, 60, 100])
  for (const ids of d === 0 ? ['none'] : ['all', 'some', 'none'])
    SHAPES[`amp-d${d}-${ids}`] = {
      family: 'amplifier',
      lines: 50_000,
      what: `Amplifier envelope, ${d} % call lines, request_id on ${ids === 'some' ? 'every other session' : ids}`,
      write: (dir, lines, seed) => single(dir, 'events.jsonl', (o) => amplifier(o, lines, seed, { density: d / 100, ids, perSession: 400, live: 4 })),
    };
SHAPES['one-session'] = {
  family: 'amplifier',
  lines: 50_000,
  what: 'every line a call line with request_id, one session',
  write: (dir, lines, seed) => single(dir, 'events.jsonl', (o) => amplifier(o, lines, seed, { density: 1, ids: 'all', perSession: Infinity, live: 1 })),
};
SHAPES.sessions = {
  family: 'amplifier',
  lines: 100_000,
  what: 'many scopes: 2 calls (4 call lines, 6 with its start and end) a session, 64 interleaved (about lines / 6 sessions)',
  write: (dir, lines, seed) => single(dir, 'events.jsonl', (o) => amplifier(o, lines, seed, { density: 1, ids: 'all', perSession: Infinity, live: 64, callsPerSession: 2 })),
};
SHAPES['jsonrpc-inorder'] = {
  family: 'jsonrpc',
  lines: 50_000,
  what: 'JSON-RPC tools/call transcript, replies in order, up to 8 in flight',
  write: (dir, lines, seed) => single(dir, 'transcript.jsonl', (o) => jsonrpc(o, lines, seed, false)),
};
SHAPES['jsonrpc-ooo'] = {
  family: 'jsonrpc',
  lines: 50_000,
  what: 'JSON-RPC tools/call transcript, each reply to one of the 8 oldest open',
  write: (dir, lines, seed) => single(dir, 'transcript.jsonl', (o) => jsonrpc(o, lines, seed, true)),
};
SHAPES.batch = {
  family: 'batch',
  lines: 50_000,
  what: 'OpenAI Batch input + output (output shuffled per 50 000-request batch)',
  write: (dir, lines, seed) => {
    mkdirSync(dir, { recursive: true });
    const i = new Out(path.join(dir, 'batchinput.jsonl'));
    const o = new Out(path.join(dir, 'batch_output.jsonl'));
    const r = batch(i, o, lines, seed);
    i.close();
    o.close();
    return { files: [i.file, o.file], args: [i.file, o.file], calls: r.calls, lines: i.lines + o.lines, trace: `${o.file}:${r.mid ?? 1}` };
  },
};
SHAPES.assay = {
  family: 'assay',
  lines: 150_000,
  what: 'one Assay run: decisions + caller + upstream (lines / 3 calls)',
  write: (dir, lines, seed) => assayFiles(dir, lines, seed, true),
};
SHAPES['assay-decisions'] = {
  family: 'assay',
  lines: 50_000,
  what: 'Assay decision records alone',
  write: (dir, lines, seed) => assayFiles(dir, lines, seed, false),
};
SHAPES.custom6 = {
  family: 'custom',
  lines: 500,
  what: 'custom profile, 6 signature fields (the most a profile may name), a quarter stale requests, terminals without id',
  write: (dir, lines, seed) => {
    const r = single(dir, 'sig6.jsonl', (o) => custom6(o, lines, seed));
    const profile = path.join(dir, 'sig6-profile.json');
    writeFileSync(profile, JSON.stringify(CUSTOM6_PROFILE, null, 2) + '\n');
    r.files.push(profile);
    r.args = ['--profile', profile, ...r.args];
    r.profile = profile;
    return r;
  },
};

function single(dir, name, fill) {
  mkdirSync(dir, { recursive: true });
  const o = new Out(path.join(dir, name));
  const r = fill(o);
  o.close();
  return { files: [o.file], args: [o.file], calls: r.calls, lines: o.lines, trace: `${o.file}:${r.mid ?? 1}` };
}

function assayFiles(dir, lines, seed, withLogs) {
  mkdirSync(dir, { recursive: true });
  const d = new Out(path.join(dir, 'decisions.ndjson'));
  const c = withLogs ? new Out(path.join(dir, 'caller.jsonl')) : null;
  const u = withLogs ? new Out(path.join(dir, 'upstream.jsonl')) : null;
  const r = assay(c, d, u, Math.max(1, Math.floor(withLogs ? lines / 3 : lines)), seed);
  for (const o of [d, c, u]) o?.close();
  const args = withLogs ? [d.file, '--caller', c.file, '--upstream', u.file] : [d.file];
  return { files: [d.file, c?.file, u?.file].filter(Boolean), args, calls: r.calls, lines: d.lines + (c?.lines ?? 0) + (u?.lines ?? 0), trace: `${d.file}:${r.mid ?? 1}` };
}

/** Writes `shape` with `lines` lines (about) into `dir`; returns {files, args, calls, lines, trace}. */
export function writeShape(shape, { dir, lines, seed = 1 }) {
  const s = SHAPES[shape];
  if (!s) throw new Error(`unknown shape ${shape} (one of ${Object.keys(SHAPES).join(', ')})`);
  return s.write(dir, lines, seed);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const v = process.argv.slice(2);
  if (v[0] === '--list' || v.length === 0) {
    for (const [k, s] of Object.entries(SHAPES)) console.log(`${k.padEnd(16)} ${s.what} (bench: ${s.lines} lines)`);
    process.exit(0);
  }
  const o = { lines: null, seed: 1, dir: null };
  for (let i = 1; i < v.length; i++) {
    if (v[i] === '--lines') o.lines = Number(v[++i]);
    else if (v[i] === '--seed') o.seed = Number(v[++i]);
    else if (v[i] === '--dir') o.dir = v[++i];
    else throw new Error(`unknown argument ${v[i]}`);
  }
  if (!o.dir) throw new Error('usage: shapes.mjs SHAPE --lines N [--seed S] --dir DIR');
  const r = writeShape(v[0], { dir: o.dir, lines: o.lines ?? SHAPES[v[0]]?.lines ?? 100_000, seed: o.seed });
  console.log(JSON.stringify(r));
}

/** The Python loop doing the same job per family (bench/peers/), and its arguments for a written shape. */
export const PEERS = {
  amplifier: 'pair_amplifier.py',
  jsonrpc: 'pair_jsonrpc.py',
  batch: 'pair_batch.py',
  assay: 'pair_assay.py',
};

/** The counts a family's Python loop prints, read from callpair's JSON report (the check that both do the same job). */
export function reportCounts(family, r) {
  const ch = (c) =>
    c && {
      requests: c.requests,
      terminals: c.terminals,
      pairs: c.pairs.total,
      orphanRequests: c.orphanRequests,
      orphanResponses: c.orphanResponses,
      ...(family === 'batch' ? { duplicateTerminals: c.duplicateTerminals, failed: c.failed } : family === 'assay' ? {} : { duplicateTerminals: c.duplicateTerminals }),
      ...(family === 'batch' ? {} : { crossed: c.crossed.fifo }),
    };
  if (family !== 'assay') return ch(r.channels[0]) ?? { requests: 0, terminals: 0, pairs: 0, orphanRequests: 0, orphanResponses: 0, duplicateTerminals: 0, crossed: 0 };
  const a = r.records?.assay;
  const out = {
    records: a?.records ?? null,
    allow: a?.byDecision?.allow ?? null,
    deny: a?.byDecision?.deny ?? null,
    deniedButDelivered: r.findingCounts.DENIED_BUT_DELIVERED ?? 0,
    unrecordedDelivery: r.findingCounts.UNRECORDED_DELIVERY ?? 0,
  };
  for (const name of ['decision', 'delivery']) {
    const c = r.channels.find((x) => x.channel === name);
    if (c) out[name] = ch(c);
  }
  return out;
}
