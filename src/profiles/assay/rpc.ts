/**
 * The JSON-RPC side of the audit (caller and upstream logs): tool names as the producer sanitises
 * them, and typed JSON-RPC id keys (9 ≠ "9").
 */
import { crypto } from '../../builtins.js';
import { clipText } from '../clip.js';
import type { IdKey } from '../event.js';
import { isSafeId } from '../ids.js';

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

/** JSON-RPC ids compare with their type: 9 ≠ "9". */
export function jsonRpcKey(id: unknown): string | null {
  if (typeof id === 'number' && Number.isFinite(id)) return `jsonrpc:n:${id}`;
  if (typeof id === 'string') return isSafeId(id) ? `jsonrpc:s:${id}` : `jsonrpc:h:${crypto().createHash('sha256').update(id).digest('hex')}`;
  return null;
}

