/**
 * The two assay channels and what they mean (docs/design.md §3): rows are
 * tools, and a decision other than `allow` (a `deny`) is a failed outcome. Also what the profile
 * reads of a record (`keep`), as plain data.
 */
import type { ChannelSpec } from '../../model.js';
import type { KeepSpec } from '../keep.js';

// A true partner always has the same tool name (the record's is the caller's, sanitized; the
// arrival is the caller's line verbatim): no FIFO pairing across different tool names.
// Rows are tools; a decision other than `allow` (a `deny`) is a failed outcome of the call.
const TOOL_MEANING = {
  rowLabel: 'tool',
  attribution: 'tool',
  groupLabels: ['tool'],
  failure: { kind: 'status-not-in', statuses: ['allow'] },
  idKind: 'correlation',
} as const satisfies Omit<ChannelSpec, 'name' | 'ordered' | 'signatureFields'>;
// Every decision record and every arrival is an event of its own, never a re-report: a reused id
// must not absorb one (docs/design.md §5), so each is paired or classified.
export const DECISION_CHANNEL: ChannelSpec = { name: 'decision', ...TOOL_MEANING, ordered: true, signatureFields: ['tool'], signatureRequired: true, distinctTerminals: true };
export const DELIVERY_CHANNEL: ChannelSpec = { name: 'delivery', ...TOOL_MEANING, ordered: true, signatureFields: ['tool'], signatureRequired: true, distinctTerminals: true };

/**
 * `Profile.keep`: decision records (and every other `assay.*` record) are validated whole; of a
 * JSON-RPC line the profile reads the method, the id, and `params.name` and `params._meta`, and keeps
 * `jsonrpc` (whether a tools/call line is a JSON-RPC message of its own, logs.ts `wrapsToolsCall`).
 */
export const ASSAY_KEEP: KeepSpec = {
  tree: { schema: true, jsonrpc: true, method: true, id: true, params: { name: true, _meta: true } },
  whole: [{ key: 'schema', prefixes: ['assay.'] }],
};

