/**
 * Agent transcripts: `--profile transcript`, and `auto` on records with tool-call blocks
 * (docs/transcripts.md).
 *
 * - Anthropic Messages / Claude Code: an assistant message's `tool_use` blocks (`id`, `name`) are
 *   requests; a user message's `tool_result` blocks (`tool_use_id`, `is_error`) are terminals
 *   (server and MCP tool blocks, `*_tool_use` / `*_tool_result`, alike). A line is a Claude Code
 *   session line (`{type, message: {id, role, content}, sessionId, isSidechain, agentId,
 *   timestamp}`) or a bare message (`{role, content}`).
 * - OpenAI chat: an assistant message's `tool_calls[]` (`id`, `function.name`) are requests; a
 *   `role: "tool"` message's `tool_call_id` is the terminal. A line is one message, or a whole
 *   conversation `{messages: […]}` (a request log: a line continues the conversation whose list
 *   it extends or whose calls it repeats, else it is its own scope).
 * - OpenAI Responses items (Codex CLI rollouts: `{type: "response_item", payload: {…}}`):
 *   `function_call` / `custom_tool_call` (`call_id`, `name`) and their `*_output` (`call_id`).
 * - OpenHands trajectories (a JSON array of events): a tool action (`tool_call_metadata`) is a
 *   call keyed by its `id`, answered by the observation whose `cause` is that id; the file is the
 *   scope (event ids restart in every file); `finish`, `message` and `reject` actions expect no
 *   observation: counted (`noObservationActions`), never calls, never orphans.
 * - scope: the session (`sessionId`); sub-agent lines (`isSidechain: true`, in the session's file
 *   or a sub-agent file) are a scope of their own, by `agentId`, so their calls never mix with the
 *   main agent's (the caller is `main` or `agent:<agentId>`);
 * - a tool call is its id within a session (`sessionId`, the OpenHands file, else the run): a block
 *   whose id was read already (a split message's lines, a block written again later, a sub-agent
 *   block written once with `isSidechain` and once without, a request log's resent history) is the
 *   same call, counted once (`repeatedBlocks`, `repeatedHistory`), never a second call (arguments
 *   compared as JSON values, `canonical`: key order and spacing carry no meaning); its result
 *   goes to the scope its call went to. The same id with another tool name or arguments (a result
 *   with another `is_error`) is a call of its own, counted and noted (`conflictingRepeats`);
 * - one API message written over several lines (one content block per line, the same
 *   `message.id`) is one message;
 * - paired by id (method `id`, confidence `exact`); parallel tool calls answered out of order are
 *   what FIFO gets wrong, so every id pair is compared with FIFO (crossed pairs). A tool call with
 *   no result is an ORPHAN_REQUEST at its `path:line`; a result with no call an ORPHAN_RESPONSE;
 * - the tool name is the row label and the signature; `is_error: true` is a failed outcome.
 */
import type { CallAttrs, ChannelSpec, Loc } from '../model.js';
import type { Source } from '../input/sources.js';
import { makeEvent } from './event.js';
import { deriveNeedles } from './lang/needles.js';
import type { KeepSpec } from './keep.js';
import type { Profile, ProfileContext, RecordHandler, RecordOutcome } from './types.js';
import { asObject, asString } from './types.js';
import { parseTime } from './time.js';
import { crypto } from '../builtins.js';
import { parseRfc3339 } from './lang/time.js';
import type { NoteCode } from '../report/notes.js';
import { Generations, ScopedGenerations } from '../engine/recent.js';
import { MAX_ID_LENGTH } from './ids.js';

/**
 * `{messages}` lines whose whole message list is remembered, per generation (two generations): a
 * line continues a conversation by its list only if that conversation's last list is still held,
 * else by an id it repeats (CALL_ID_WINDOW) (docs/design.md §8).
 */
export const CONVERSATION_WINDOW = 50_000;

/**
 * Tool-call and result ids remembered (with the scope their call went to), and message ids, per
 * generation (two generations each): an id read again within the window is the same call
 * (docs/design.md §8).
 */
export const CALL_ID_WINDOW = 50_000;

export const TRANSCRIPT_CHANNEL: ChannelSpec = {
  name: 'transcript',
  // Rows are tool names; latency per tool.
  rowLabel: 'tool',
  attribution: 'tool',
  groupLabels: ['tool'],
  // A tool_result with `is_error: true` is a failed call.
  failure: { kind: 'error-present' },
  idKind: 'correlation',
  ordered: false,
  signatureFields: ['tool'],
  // Every call and result has an id: a result never takes a call by order alone.
  signatureRequired: true,
};

const MESSAGE_TREE = { id: true, role: true, content: true, tool_calls: true, tool_call_id: true, name: true } as const;
const ITEM_TREE = { type: true, call_id: true, name: true, arguments: true, input: true } as const;
const AGENT_EVENT_TREE = { action: true, observation: true, cause: true, tool_call_metadata: { function_name: true } } as const;

/** `Profile.keep`: what the profile reads of a line (arrays, such as `content`, are kept whole). */
export const TRANSCRIPT_KEEP: KeepSpec = {
  tree: { ...MESSAGE_TREE, ...ITEM_TREE, ...AGENT_EVENT_TREE, message: MESSAGE_TREE, messages: true, payload: ITEM_TREE, sessionId: true, session_id: true, isSidechain: true, agentId: true, timestamp: true },
};

/** The note of a tool call never answered (ORPHAN_REQUEST). */
export const NOTE_NO_TOOL_RESULT = 'tool call with no tool result';

export interface TranscriptSummary {
  /** Messages with a tool call or result (the lines of one split API message count once). */
  messages: number;
  toolCalls: number;
  toolResults: number;
  /** Results marked `is_error`. */
  errorResults: number;
  /**
   * Tool-call and result blocks of session lines (Claude Code, OpenAI chat messages, Responses
   * items, OpenHands events) whose id the session read already, the same tool and arguments (the
   * same outcome): the same call, counted once.
   */
  repeatedBlocks: number;
  /** Lines with tool calls or results from sub-agents (`isSidechain: true`). */
  sidechainLines: number;
  /** Scopes (sessions, sub-agents, conversations) with at least one tool call or result. */
  scopes: number;
  /** Agent actions that expect no observation (OpenHands `finish`, `message`, `reject`): counted, never calls. */
  noObservationActions: number;
  /** Tool calls and results of a conversation line already read on an earlier line of it (a request log resends the history): counted once. */
  repeatedHistory: number;
  /**
   * `{messages}` lines whose list continues no earlier line's but repeats tool calls or results
   * read before (a history cut at its start or end, or with an earlier message edited): read as
   * the conversation of those calls.
   */
  rewrittenHistory: number;
  /**
   * Blocks whose id was read already with another tool name or arguments (a result: another
   * `is_error`): read as a call (a result) of its own, with a note.
   */
  conflictingRepeats: number;
  /** The first such block's line (`path:line`), or null. */
  conflictingRepeatsAt: string | null;
  /**
   * `{messages}` lines with tool calls or results that continue no remembered list and repeat no
   * remembered id, read once the window of ids (CALL_ID_WINDOW) had forgotten some: each may
   * continue a conversation whose ids fell out of the window, its history's calls then counted again.
   */
  beyondWindow: number;
  /** The first such line (`path:line`), or null. */
  beyondWindowAt: string | null;
  /**
   * Tool calls and results with an id of a line that is no `{messages}` list (a session line),
   * read as new once the window of ids had forgotten some: each may repeat a block read before
   * the window's ids (listed when some were, with the first one's line; a note says so).
   */
  newPastWindow?: number;
  newPastWindowAt?: string;
  /** Tool lines whose `timestamp` has no zone (OpenHands' naive ISO 8601), read as UTC. */
  naiveTimes: number;
  /** Tool lines whose `timestamp` is there but no time: no latency for their calls. */
  unreadableTimes: number;
  /**
   * Tool results first read on the line that first holds their call (a request log line whose
   * history holds both), on a line with a time: that time times neither, so the result carries no
   * time and the pair no latency.
   */
  sameLineResults: number;
}

interface Block {
  kind: 'call' | 'result';
  id: unknown;
  idField: string;
  tool: string | null;
  /** A call's arguments (`input`, `function.arguments`, `arguments`), as written. */
  args: unknown;
  /** `args` is an OpenAI `arguments` string: JSON text, compared by what it parses to when it parses. */
  argsText?: true;
  failed: boolean;
  /** The index of the block's message in a `{messages}` list (else 0). */
  at: number;
  /** `callPrint`, once made. */
  print?: string;
}

/** What the window remembers of an id read in a session. */
interface Seen {
  /** The scope the call went to (with no call read, the result). */
  scope: string;
  /** The call's tool and arguments (`callPrint`), or null when only a result was read. */
  call: string | null;
  /** The result's `failed`, or null when none was read. */
  failed: boolean | null;
}

/** The tool-call blocks of one message object (Anthropic content blocks, OpenAI tool_calls / role tool). */
function messageBlocks(m: Record<string, unknown>, out: Block[], at = 0): void {
  const content = m.content;
  if (Array.isArray(content)) {
    for (const b of content) {
      const o = asObject(b);
      const type = asString(o?.type);
      if (!o || type === null) continue;
      if (type.endsWith('tool_use') && o.id !== undefined) out.push({ kind: 'call', id: o.id, idField: 'id', tool: asString(o.name), args: o.input, failed: false, at });
      else if (type.endsWith('tool_result') && o.tool_use_id !== undefined)
        out.push({ kind: 'result', id: o.tool_use_id, idField: 'tool_use_id', tool: null, args: undefined, failed: o.is_error === true, at });
    }
  }
  if (Array.isArray(m.tool_calls)) {
    for (const c of m.tool_calls) {
      const o = asObject(c);
      if (!o || o.id === undefined) continue;
      const fn = asObject(o.function);
      out.push({ kind: 'call', id: o.id, idField: 'tool_calls[].id', tool: asString(fn?.name) ?? asString(o.name), args: fn !== null ? fn.arguments : o.arguments, argsText: true, failed: false, at });
    }
  }
  if (m.role === 'tool' && m.tool_call_id !== undefined) out.push({ kind: 'result', id: m.tool_call_id, idField: 'tool_call_id', tool: asString(m.name), args: undefined, failed: false, at });
}

const RESPONSES_CALLS = new Set(['function_call', 'custom_tool_call']);
const RESPONSES_OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output']);

/** An OpenAI Responses item (`function_call`, `function_call_output`…), or nothing. */
function responsesItem(item: Record<string, unknown>, out: Block[]): void {
  const type = asString(item.type);
  if (type === null || item.call_id === undefined) return;
  if (RESPONSES_CALLS.has(type)) {
    // `function_call` arguments are JSON text; a `custom_tool_call` input is free text (compared as written).
    if (item.arguments !== undefined && item.arguments !== null) out.push({ kind: 'call', id: item.call_id, idField: 'call_id', tool: asString(item.name), args: item.arguments, argsText: true, failed: false, at: 0 });
    else out.push({ kind: 'call', id: item.call_id, idField: 'call_id', tool: asString(item.name), args: item.input, failed: false, at: 0 });
  }
  else if (RESPONSES_OUTPUTS.has(type)) out.push({ kind: 'result', id: item.call_id, idField: 'call_id', tool: null, args: undefined, failed: false, at: 0 });
}

/** OpenHands actions that end a turn and expect no observation: counted, never a call. */
const NO_OBSERVATION_ACTIONS = new Set(['finish', 'message', 'reject']);

/**
 * An OpenHands event (`{id, action | observation, cause, tool_call_metadata: {function_name}}`):
 * a tool action is a call keyed by its `id`, the observation whose `cause` names it its result.
 * Events without `tool_call_metadata` (user messages, state changes) are no tool calls.
 */
function agentEvent(o: Record<string, unknown>, out: Block[]): 'none' | 'block' | 'no-observation' {
  const meta = asObject(o.tool_call_metadata);
  if (meta === null) return 'none';
  const tool = asString(meta.function_name);
  const action = asString(o.action);
  if (action !== null && typeof o.id === 'number') {
    if (NO_OBSERVATION_ACTIONS.has(action)) return 'no-observation';
    out.push({ kind: 'call', id: `event-${o.id}`, idField: 'id', tool, args: action, failed: false, at: 0 });
    return 'block';
  }
  if (asString(o.observation) !== null && typeof o.cause === 'number') {
    out.push({ kind: 'result', id: `event-${o.cause}`, idField: 'cause', tool, args: undefined, failed: o.observation === 'error', at: 0 });
    return 'block';
  }
  return 'none';
}

/**
 * A line's `timestamp`: RFC 3339 with a zone, or without one (OpenHands writes Python's naive
 * `isoformat()`), read as UTC and counted so the report says so once; one that is there but no
 * time is counted as unreadable (a note), never a silent null.
 */
function readTime(v: unknown, sum: TranscriptSummary): number | null {
  if (v === undefined || v === null) return null;
  const t = parseTime(v);
  if (t !== null) return t;
  const naive = parseRfc3339(v);
  if (naive !== null) {
    if (naive.naive) sum.naiveTimes++;
    return naive.ms;
  }
  sum.unreadableTimes++;
  return null;
}

/**
 * The conversation a `{messages: […]}` line continues by its list: the longest prefix of its
 * messages whose hash is an earlier line's whole list (`known` messages read already), or null;
 * `whole` is the hash of the line's own list (null for an empty list), remembered by the caller.
 * Lists of different sessions (`session_id`) never continue each other.
 */
function continues(conversations: Generations<string>, session: string, messages: unknown[]): { conversation: string | null; known: number; whole: string | null } {
  const h = crypto().createHash('sha256');
  h.update(session);
  h.update('\u0000');
  const prefixes: string[] = [];
  for (const m of messages) {
    h.update(JSON.stringify(m) ?? 'null');
    h.update('\u0000');
    prefixes.push(h.copy().digest('base64'));
  }
  for (let k = prefixes.length; k > 0; k--) {
    const c = conversations.get(prefixes[k - 1]!);
    if (c !== undefined) return { conversation: c, known: k, whole: prefixes[prefixes.length - 1]! };
  }
  return { conversation: null, known: 0, whole: prefixes.length > 0 ? prefixes[prefixes.length - 1]! : null };
}

function isMessage(m: Record<string, unknown> | null): boolean {
  return m !== null && typeof m.role === 'string';
}

/** A call's tool and arguments, to tell a repeat (the same) from a reused id (another). */
let unserialisable = 0;
function callPrint(b: Block): string {
  return (b.print ??= print(b));
}
function print(b: Block): string {
  let args: string;
  try {
    args = canonicalArgs(b);
  } catch {
    // Too deep to serialise: equal to nothing, so a repeat of it is said, never assumed.
    args = `\u0001${++unserialisable}`;
  }
  // Short ones as written; longer ones by their SHA-256 (never a weaker hash: it decides).
  const text = `${b.tool ?? ''}\u0000${args}`;
  return text.length <= 44 ? text : crypto().hash('sha256', text, 'base64');
}

/**
 * A call's arguments as compared: JSON carries no meaning in key order, spacing or number spelling,
 * so the same object resent with its keys in another order (`{"a":1,"b":2}`, `{"b":2,"a":1}`) or an
 * OpenAI `arguments` string resent with other spacing (`{"a": 1}`, `{"a":1}`) is the same call.
 * An `arguments` string that parses as JSON is compared by its value (tag `j`), one that does not
 * by its text as written (tag `s`).
 */
function canonicalArgs(b: Block): string {
  let v = b.args;
  if (b.argsText === true && typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return `s${v}`;
    }
  }
  return `j${canonical(v)}`;
}

/**
 * A parsed JSON value written so that two values are equal exactly when their texts are: every
 * object's keys sorted (code-unit order), strings as they are behind their length (no escaping to
 * redo), numbers by their value. Not JSON: only compared (and hashed), never shown.
 */
export function canonical(v: unknown): string {
  if (v === null) return 'n';
  switch (typeof v) {
    case 'string':
      return `s${v.length}:${v}`;
    case 'number':
      return `d${v};`;
    case 'boolean':
      return v ? 't' : 'f';
    case 'object':
      break;
    default:
      return 'u';
  }
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += v[i] === undefined ? 'n' : canonical(v[i]);
    return out + ']';
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort();
  let out = '{';
  for (const k of keys) {
    const x = o[k];
    if (x !== undefined) out += `s${k.length}:${k}${canonical(x)}`;
  }
  return out + '}';
}

/**
 * The tool-call and result ids a transcript line holds (any shape the profile reads), in order:
 * `trace` names them when the line yields no call event (every one of them a repeat).
 */
export function transcriptBlockIds(value: unknown): unknown[] {
  const o = asObject(value);
  if (o === null) return [];
  const blocks: Block[] = [];
  const wrapped = asObject(o.message);
  if (wrapped !== null && isMessage(wrapped)) messageBlocks(wrapped, blocks);
  else if (Array.isArray(o.messages)) {
    for (const m of o.messages) {
      const mo = asObject(m);
      if (mo !== null && isMessage(mo)) messageBlocks(mo, blocks);
    }
  } else if (isMessage(o)) messageBlocks(o, blocks);
  else if (o.tool_call_metadata !== undefined) agentEvent(o, blocks);
  else {
    const payload = asObject(o.payload);
    if (payload !== null && o.type === 'response_item') responsesItem(payload, blocks);
    else if (o.payload === undefined) responsesItem(o, blocks);
  }
  return blocks.map((b) => b.id);
}

export function transcriptProfile(opts: { conversationWindow?: number; callIdWindow?: number } = {}): Profile {
  const sum: TranscriptSummary = {
    messages: 0,
    toolCalls: 0,
    toolResults: 0,
    errorResults: 0,
    repeatedBlocks: 0,
    sidechainLines: 0,
    scopes: 0,
    noObservationActions: 0,
    repeatedHistory: 0,
    rewrittenHistory: 0,
    conflictingRepeats: 0,
    conflictingRepeatsAt: null,
    beyondWindow: 0,
    beyondWindowAt: null,
    naiveTimes: 0,
    unreadableTimes: 0,
    sameLineResults: 0,
  };
  /** Scopes an event went to (`scopes`). */
  const scopesSeen = new Set<string>();
  /**
   * `{messages: […]}` lines: the hash of each line's whole message list → its conversation. A line
   * whose first k messages hash to an earlier line's list continues that conversation, and only its
   * messages after the k-th are new. Bounded: two generations of CONVERSATION_WINDOW lists.
   */
  const conversations = new Generations<string>(opts.conversationWindow ?? CONVERSATION_WINDOW);
  /**
   * Every call and result id read, by session, then id → where its call went and what it was. A
   * block whose id is here, the same call (the same result), is a repeat; a result goes to its
   * call's scope (Claude Code may write `agentId` on a sub-agent's result lines but not on its call
   * lines, or a block once with `isSidechain` and once without). Bounded: two generations of
   * CALL_ID_WINDOW ids.
   */
  const ids = new ScopedGenerations<Seen>(opts.callIdWindow ?? CALL_ID_WINDOW);
  /** A block's id as the window keys it, or null when it is no string id (never remembered). */
  const idKey = (id: unknown): string | null => (typeof id === 'string' && id.length > 0 && id.length <= MAX_ID_LENGTH ? id : null);
  /** Per line scope, the message its last line with a new block belonged to. */
  const lastMessage = new Map<string, string>();

  return {
    name: 'transcript',
    channels: [TRANSCRIPT_CHANNEL],
    needles: deriveNeedles(['tool_use_id', 'tool_use', 'tool_calls', 'tool_call_id', 'call_id', 'tool_call_metadata']),
    keep: TRANSCRIPT_KEEP,
    open(source: Source, ctx: ProfileContext): RecordHandler | null {
      if (source.role !== 'capture') return null;
      return {
        record(value: unknown, loc: Loc): RecordOutcome {
          const o = asObject(value);
          if (!o) return 'unclaimed';
          const blocks: Block[] = [];
          let scope = '';
          let caller: string | null = null;
          let messageId: string | null = null;
          const session = asString(o.sessionId) ?? asString(o.session_id) ?? '';
          let idSession = session;
          /** A `{messages}` line: its list's hash and how many of its messages an earlier line held. */
          let list: { whole: string | null; known: number } | null = null;
          let repeated = 0;
          const wrapped = asObject(o.message);
          if (wrapped !== null && isMessage(wrapped)) {
            // A Claude Code session line.
            messageBlocks(wrapped, blocks);
            messageId = asString(wrapped.id);
          } else if (Array.isArray(o.messages)) {
            // A whole conversation on one line (a request log): the conversation it continues, else
            // one of its own; the messages an earlier line of it held are read already.
            const c = continues(conversations, session, o.messages);
            list = c;
            for (let k = 0; k < o.messages.length; k++) {
              const mo = asObject(o.messages[k]);
              if (mo === null || !isMessage(mo)) continue;
              if (k < c.known) {
                const before = blocks.length;
                messageBlocks(mo, blocks);
                repeated += blocks.length - before;
                blocks.length = before;
              } else messageBlocks(mo, blocks, k);
            }
            if (c.conversation !== null) scope = c.conversation;
            else {
              // A list that continues none held: the conversation of the first call or result it
              // repeats (its history cut or edited), else a new one. A call read before with another
              // tool or arguments is an id reused, not repeated: the line continues nothing by it.
              let found = false;
              for (const b of blocks) {
                const key = idKey(b.id);
                const seen = key === null ? undefined : ids.get(idSession, key);
                if (seen === undefined) continue;
                if (b.kind === 'call' && seen.call !== null && seen.call !== callPrint(b)) break;
                if (b.kind === 'call' ? seen.call !== null : seen.failed !== null) {
                  scope = seen.scope;
                  found = true;
                  sum.rewrittenHistory++;
                  break;
                }
              }
              if (!found) {
                scope = `line ${loc.line}`;
                // Fail closed past the window of ids: a line that continues nothing held and repeats no id
                // held, once some ids were forgotten, may repeat forgotten calls (said, counted). A
                // forgotten list alone counts nothing twice: its calls' ids are still held.
                if (blocks.length > 0 && ids.dropped) {
                  sum.beyondWindow++;
                  sum.beyondWindowAt ??= `${loc.path}:${loc.line}`;
                }
              }
            }
            if (c.whole !== null && !conversations.has(c.whole)) conversations.set(c.whole, scope);
            sum.repeatedHistory += repeated;
            if (blocks.length === 0) return c.known > 0 ? 'used' : 'unclaimed';
          } else if (isMessage(o)) {
            messageBlocks(o, blocks);
            messageId = asString(o.id);
          } else if (o.tool_call_metadata !== undefined) {
            const e = agentEvent(o, blocks);
            if (e === 'no-observation') {
              // Counted as what it is, but no call event: a trajectory of these alone has nothing to
              // audit (NO_CALL_EVENTS, docs/profiles.md "Nothing matched never passes quietly").
              sum.noObservationActions++;
              return 'ignored';
            }
            // Event ids restart in every trajectory file: the file is the scope and the session.
            scope = loc.path;
            idSession = loc.path;
          } else {
            const payload = asObject(o.payload);
            if (payload !== null && o.type === 'response_item') responsesItem(payload, blocks);
            else if (o.payload === undefined) responsesItem(o, blocks);
          }
          if (blocks.length === 0) return 'unclaimed';
          if (list === null && scope === '') {
            if (o.isSidechain === true) {
              sum.sidechainLines++;
              const agent = asString(o.agentId);
              caller = agent !== null ? `agent:${agent}` : 'sidechain';
              scope = session === '' ? caller : `${session}/${caller}`;
            } else {
              caller = 'main';
              scope = session;
            }
          }
          const time = readTime(o.timestamp, sum);
          /** The messages of a `{messages}` line with a new block (by index), or whether this line had one. */
          let newAt = -1;
          let messages = 0;
          /** Ids of the calls this line is the first to hold. */
          let callsHere: Set<string> | null = null;
          for (const b of blocks) {
            const key = idKey(b.id);
            const seen = key === null ? undefined : ids.get(idSession, key);
            if (seen === undefined && key !== null && list === null && ids.dropped) {
              // Read as new; a window holding more ids might have found it a repeat (said, counted).
              sum.newPastWindow = (sum.newPastWindow ?? 0) + 1;
              sum.newPastWindowAt ??= `${loc.path}:${loc.line}`;
            }
            if (b.kind === 'call') {
              // Only a call with a string id is remembered (and so compared).
              const print = key !== null ? callPrint(b) : null;
              if (seen !== undefined && seen.call !== null) {
                if (seen.call === print) {
                  // The same call read again: counted, never a second call.
                  if (list !== null) sum.repeatedHistory++;
                  else sum.repeatedBlocks++;
                  ids.set(idSession, key!, seen);
                  continue;
                }
                conflict(loc);
              }
              // A call answered before it was read keeps its result: a later copy of the result is a repeat.
              if (key !== null) {
                ids.set(idSession, key, { scope, call: print!, failed: seen !== undefined && seen.call === null ? seen.failed : null });
                (callsHere ??= new Set()).add(key);
              }
              sum.toolCalls++;
              const attrs: CallAttrs = { kind: 'tool call', tool: b.tool };
              ctx.emit(makeEvent(TRANSCRIPT_CHANNEL, { role: 'request', scope, id: { field: b.idField, value: b.id }, sig: [b.tool], time, caller, attrs, loc, orphanNote: NOTE_NO_TOOL_RESULT }, ctx));
              scopesSeen.add(scope);
            } else {
              if (seen !== undefined && seen.failed !== null) {
                if (seen.failed === b.failed) {
                  if (list !== null) sum.repeatedHistory++;
                  else sum.repeatedBlocks++;
                  ids.set(idSession, key!, seen);
                  continue;
                }
                conflict(loc);
              }
              // A result goes to the scope its call went to.
              const at = seen !== undefined && seen.call !== null ? seen.scope : scope;
              if (key !== null) {
                if (seen !== undefined) seen.failed = b.failed;
                ids.set(idSession, key, seen ?? { scope: at, call: null, failed: b.failed });
              }
              sum.toolResults++;
              if (b.failed) sum.errorResults++;
              // Read on the line its call was first read on: the line's time is not when either happened.
              const untimed = time !== null && callsHere !== null && callsHere.has(key!);
              if (untimed) sum.sameLineResults++;
              const attrs: CallAttrs = { kind: 'tool result', tool: b.tool, status: b.failed ? 'error' : 'ok', error: b.failed ? 'is_error' : null, durationMs: null };
              ctx.emit(makeEvent(TRANSCRIPT_CHANNEL, { role: 'terminal', scope: at, id: { field: b.idField, value: b.id }, sig: [b.tool], time: untimed ? null : time, caller, attrs, loc }, ctx));
              scopesSeen.add(at);
            }
            // Messages with a new block: in a `{messages}` list each such message, else the line's.
            if (list !== null) {
              if (b.at !== newAt) {
                newAt = b.at;
                messages++;
              }
            } else messages = 1;
          }
          // One API message over several lines (the same message id) is one message. Claude Code
          // writes a result as soon as it arrives, between the lines of the message that made the
          // call: lines without a message id (results) leave the message open.
          if (messages > 0 && messageId !== null) {
            if (lastMessage.get(scope) === messageId) messages = 0;
            else lastMessage.set(scope, messageId);
          }
          sum.messages += messages;
          sum.scopes = scopesSeen.size;
          return 'used';
        },
      };
    },
    summary: () => (sum.toolCalls + sum.toolResults + sum.noObservationActions > 0 ? { ...sum } : undefined),
    notes() {
      const out: NoteCode[] = [];
      if (sum.naiveTimes > 0) out.push('transcript-naive-times');
      if (sum.unreadableTimes > 0) out.push('transcript-unreadable-times');
      if (sum.beyondWindow > 0) out.push('transcript-beyond-window');
      if (sum.newPastWindow) out.push('transcript-new-past-window');
      if (sum.conflictingRepeats > 0) out.push('transcript-conflicting-repeats');
      if (sum.sameLineResults > 0) out.push('transcript-same-line-results');
      return out;
    },
  };

  function conflict(loc: Loc): void {
    sum.conflictingRepeats++;
    sum.conflictingRepeatsAt ??= `${loc.path}:${loc.line}`;
  }
}
