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
 *   conversation `{messages: […]}` (then the line is its own scope).
 * - OpenAI Responses items (Codex CLI rollouts: `{type: "response_item", payload: {…}}`):
 *   `function_call` / `custom_tool_call` (`call_id`, `name`) and their `*_output` (`call_id`).
 * - OpenHands trajectories (a JSON array of events): a tool action (`tool_call_metadata`) is a
 *   call keyed by its `id`, answered by the observation whose `cause` is that id; the file is the
 *   scope (event ids restart in every file); `finish`, `message` and `reject` actions expect no
 *   observation: counted (`noObservationActions`), never calls, never orphans.
 * - scope: the session (`sessionId`); sub-agent lines (`isSidechain: true`, in the session's file
 *   or a sub-agent file) are a scope of their own, by `agentId`, so their calls never mix with the
 *   main agent's (the caller is `main` or `agent:<agentId>`);
 * - one API message written over several lines (one content block per line, the same
 *   `message.id`) is one message: a block repeated under the same message id is counted once
 *   (`repeatedBlocks`), never a second call;
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
import { Generations } from '../engine/recent.js';

/**
 * `{messages}` lines whose whole message list is remembered, per generation (two generations): a
 * line continues a conversation only if that conversation's last list is still held
 * (docs/design.md §8).
 */
export const CONVERSATION_WINDOW = 50_000;

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
const ITEM_TREE = { type: true, call_id: true, name: true } as const;
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
  /** Tool-call blocks repeated on a later line of the same message (counted once). */
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
   * `{messages}` lines with tool calls or results in their history that continue no remembered
   * list, read once the window of lists (CONVERSATION_WINDOW) had forgotten some: each may continue
   * a conversation that fell out of the window, its history's calls then counted again.
   */
  beyondWindow: number;
  /** The first such line (`path:line`), or null. */
  beyondWindowAt: string | null;
  /** Tool lines whose `timestamp` has no zone (OpenHands' naive ISO 8601), read as UTC. */
  naiveTimes: number;
  /** Tool lines whose `timestamp` is there but no time: no latency for their calls. */
  unreadableTimes: number;
}

interface Block {
  kind: 'call' | 'result';
  id: unknown;
  idField: string;
  tool: string | null;
  failed: boolean;
}

/** The tool-call blocks of one message object (Anthropic content blocks, OpenAI tool_calls / role tool). */
function messageBlocks(m: Record<string, unknown>, out: Block[]): void {
  const content = m.content;
  if (Array.isArray(content)) {
    for (const b of content) {
      const o = asObject(b);
      const type = asString(o?.type);
      if (!o || type === null) continue;
      if (type.endsWith('tool_use') && o.id !== undefined) out.push({ kind: 'call', id: o.id, idField: 'id', tool: asString(o.name), failed: false });
      else if (type.endsWith('tool_result') && o.tool_use_id !== undefined)
        out.push({ kind: 'result', id: o.tool_use_id, idField: 'tool_use_id', tool: null, failed: o.is_error === true });
    }
  }
  if (Array.isArray(m.tool_calls)) {
    for (const c of m.tool_calls) {
      const o = asObject(c);
      if (!o || o.id === undefined) continue;
      out.push({ kind: 'call', id: o.id, idField: 'tool_calls[].id', tool: asString(asObject(o.function)?.name) ?? asString(o.name), failed: false });
    }
  }
  if (m.role === 'tool' && m.tool_call_id !== undefined) out.push({ kind: 'result', id: m.tool_call_id, idField: 'tool_call_id', tool: asString(m.name), failed: false });
}

const RESPONSES_CALLS = new Set(['function_call', 'custom_tool_call']);
const RESPONSES_OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output']);

/** An OpenAI Responses item (`function_call`, `function_call_output`…), or nothing. */
function responsesItem(item: Record<string, unknown>, out: Block[]): void {
  const type = asString(item.type);
  if (type === null || item.call_id === undefined) return;
  if (RESPONSES_CALLS.has(type)) out.push({ kind: 'call', id: item.call_id, idField: 'call_id', tool: asString(item.name), failed: false });
  else if (RESPONSES_OUTPUTS.has(type)) out.push({ kind: 'result', id: item.call_id, idField: 'call_id', tool: null, failed: false });
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
    out.push({ kind: 'call', id: `event-${o.id}`, idField: 'id', tool, failed: false });
    return 'block';
  }
  if (asString(o.observation) !== null && typeof o.cause === 'number') {
    out.push({ kind: 'result', id: `event-${o.cause}`, idField: 'cause', tool, failed: o.observation === 'error' });
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
 * The conversation a `{messages: […]}` line continues: the longest prefix of its messages whose
 * hash is an earlier line's whole list (`known` messages read already), else a new one named
 * `name`. The line's own list is remembered for the lines after it.
 */
function continues(conversations: Generations<string>, messages: unknown[], name: string): { conversation: string; known: number } {
  const h = crypto().createHash('sha256');
  const prefixes: string[] = [];
  for (const m of messages) {
    h.update(JSON.stringify(m) ?? 'null');
    h.update('\u0000');
    prefixes.push(h.copy().digest('base64'));
  }
  let conversation = name;
  let known = 0;
  for (let k = prefixes.length; k > 0; k--) {
    const c = conversations.get(prefixes[k - 1]!);
    if (c !== undefined) {
      conversation = c;
      known = k;
      break;
    }
  }
  if (prefixes.length > 0 && !conversations.has(prefixes[prefixes.length - 1]!)) conversations.set(prefixes[prefixes.length - 1]!, conversation);
  return { conversation, known };
}

function isMessage(m: Record<string, unknown> | null): boolean {
  return m !== null && typeof m.role === 'string';
}

export function transcriptProfile(opts: { conversationWindow?: number } = {}): Profile {
  const sum: TranscriptSummary = { messages: 0, toolCalls: 0, toolResults: 0, errorResults: 0, repeatedBlocks: 0, sidechainLines: 0, scopes: 0, noObservationActions: 0, repeatedHistory: 0, beyondWindow: 0, beyondWindowAt: null, naiveTimes: 0, unreadableTimes: 0 };
  /** Per scope: the message the last line belonged to, and the call ids read under it. */
  const lastMessage = new Map<string, { id: string | null; calls: Set<string> }>();
  /**
   * `{messages: […]}` lines: the hash of each line's whole message list → its conversation. A line
   * whose first k messages hash to an earlier line's list continues that conversation, and only its
   * messages after the k-th are new. Bounded: two generations of CONVERSATION_WINDOW lists.
   */
  const conversations = new Generations<string>(opts.conversationWindow ?? CONVERSATION_WINDOW);
  /**
   * Sub-agent calls not yet answered, by session and call id → their scope: Claude Code may write
   * `agentId` on a sub-agent's result lines but not on its call lines, and the result then finds
   * its call in the session's other sub-agent scope.
   */
  const openSidechainCalls = new Map<string, string>();

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
          let messages = 0;
          const wrapped = asObject(o.message);
          if (wrapped !== null && isMessage(wrapped)) {
            // A Claude Code session line.
            messageBlocks(wrapped, blocks);
            messageId = asString(wrapped.id);
            messages = 1;
          } else if (Array.isArray(o.messages)) {
            // A whole conversation on one line (a request log): the conversation it continues, else
            // one of its own; the messages an earlier line of it held are read already.
            const { conversation, known } = continues(conversations, o.messages, `line ${loc.line}`);
            scope = conversation;
            // Fail closed past the window: a line that continues no list held, once some were
            // forgotten, may continue a forgotten one if its history holds tool blocks (said, counted).
            let history = known === 0 && conversations.dropped;
            for (let k = 0; k < o.messages.length; k++) {
              const mo = asObject(o.messages[k]);
              if (mo !== null && isMessage(mo)) {
                if (k < known) {
                  const before = blocks.length;
                  messageBlocks(mo, blocks);
                  sum.repeatedHistory += blocks.length - before;
                  blocks.length = before;
                  continue;
                }
                const before = blocks.length;
                messageBlocks(mo, blocks);
                messages++;
                if (history && blocks.length > before) {
                  history = false;
                  sum.beyondWindow++;
                  sum.beyondWindowAt ??= `${loc.path}:${loc.line}`;
                }
              }
            }
            if (blocks.length === 0 && known > 0) return 'used';
          } else if (isMessage(o)) {
            messageBlocks(o, blocks);
            messageId = asString(o.id);
            messages = 1;
          } else if (o.tool_call_metadata !== undefined) {
            const e = agentEvent(o, blocks);
            if (e === 'no-observation') {
              // Counted as what it is, but no call event: a trajectory of these alone has nothing to
              // audit (NO_CALL_EVENTS, docs/profiles.md "Nothing matched never passes quietly").
              sum.noObservationActions++;
              return 'ignored';
            }
            // Event ids restart in every trajectory file: the file is the scope.
            scope = loc.path;
            messages = blocks.length;
          } else {
            const payload = asObject(o.payload);
            if (payload !== null && o.type === 'response_item') responsesItem(payload, blocks);
            else if (o.payload === undefined) responsesItem(o, blocks);
            messages = blocks.length > 0 ? 1 : 0;
          }
          if (blocks.length === 0) return 'unclaimed';
          if (scope === '') {
            const session = asString(o.sessionId) ?? asString(o.session_id) ?? '';
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
          // One API message over several lines: a block already read under the same message id is
          // the same call, not a second one.
          let state = lastMessage.get(scope);
          if (state === undefined) {
            state = { id: null, calls: new Set() };
            lastMessage.set(scope, state);
            sum.scopes++;
          }
          // Claude Code writes a result as soon as it arrives, between the lines of the message
          // that made the call: lines without a message id (results) leave the message open.
          if (messageId === null) sum.messages += messages;
          else if (messageId !== state.id) {
            state.id = messageId;
            state.calls.clear();
            sum.messages += messages;
          }
          const sidechain = o.isSidechain === true;
          for (const b of blocks) {
            let at = scope;
            if (sidechain && typeof b.id === 'string') {
              const k = `${asString(o.sessionId) ?? asString(o.session_id) ?? ''}\u0000${b.id}`;
              if (b.kind === 'call') openSidechainCalls.set(k, scope);
              else {
                at = openSidechainCalls.get(k) ?? scope;
                openSidechainCalls.delete(k);
              }
            }
            if (b.kind === 'call') {
              const key = typeof b.id === 'string' ? b.id : null;
              if (messageId !== null && key !== null) {
                if (state.calls.has(key)) {
                  sum.repeatedBlocks++;
                  continue;
                }
                state.calls.add(key);
              }
              sum.toolCalls++;
              const attrs: CallAttrs = { kind: 'tool call', tool: b.tool };
              ctx.emit(makeEvent(TRANSCRIPT_CHANNEL, { role: 'request', scope, id: { field: b.idField, value: b.id }, sig: [b.tool], time, caller, attrs, loc, orphanNote: NOTE_NO_TOOL_RESULT }, ctx));
            } else {
              sum.toolResults++;
              if (b.failed) sum.errorResults++;
              const attrs: CallAttrs = { kind: 'tool result', tool: b.tool, status: b.failed ? 'error' : 'ok', error: b.failed ? 'is_error' : null, durationMs: null };
              ctx.emit(makeEvent(TRANSCRIPT_CHANNEL, { role: 'terminal', scope: at, id: { field: b.idField, value: b.id }, sig: [b.tool], time, caller, attrs, loc }, ctx));
            }
          }
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
      return out;
    },
  };
}
