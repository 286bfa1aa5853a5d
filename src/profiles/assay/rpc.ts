/**
 * The JSON-RPC side of the audit (caller and upstream logs): tool names as the producer sanitises
 * them, and typed JSON-RPC id keys (9 ≠ "9").
 */
import { clipText } from '../clip.js';
import { checkId, derivedKey, type IdKey, type IdResult } from '../event.js';

export interface RpcCall {
  /** The JSON-RPC id key, null for a notification (no id) or an unusable id. */
  rpcKey: IdKey | null;
  corrId: IdKey | null;
  tool: string | null;
}

/**
 * The producer's `sanitize` (tool_decision.rs): Unicode Cc other than tab/newline/CR becomes
 * U+FFFD, so a caller's `params.name` compares equal to the record's `tool.name`. A call without
 * a string `params.name` is recorded with `tool.name: ""`.
 */
export function producerToolName(name: unknown): string {
  if (typeof name !== 'string') return '';
  // Clipped like every kept capture string (bounded memory; the marker keeps long names distinct).
  return clipText(name.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '\ufffd'));
}

/**
 * A JSON-RPC id under the protocol id rule every profile uses (`checkId('protocol')`,
 * src/profiles/event.ts; docs/pairing.md, "How ids are shown"): a string or a safe integer, typed
 * (9 ≠ "9"). An unsafe, fractional or `-0` number, or any other JSON value, is INVALID_ID and
 * never a key: 9007199254740993 parses as 9007199254740992, so such ids cannot tell calls apart.
 * Keys are namespaced `jsonrpc:` (no correlation id holds a `:`).
 */
export function checkJsonRpcId(id: unknown): IdResult {
  return checkId('protocol', 'id', id);
}

/** The engine key of a checked JSON-RPC id, or null when it gives none (absent, null, "") or is invalid. */
export function rpcKeyOf(c: IdResult): IdKey | null {
  return c.kind === 'valid' ? derivedKey(`jsonrpc:${c.key}`) : null;
}

export function jsonRpcKey(id: unknown): IdKey | null {
  return rpcKeyOf(checkJsonRpcId(id));
}
