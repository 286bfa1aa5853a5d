/**
 * Repeated keys on the Assay lines (docs/assay.md, "Repeated keys"): a decision record or a
 * JSON-RPC message holding twice a key the audit reads — its kind, method, id, tool name or
 * correlation id — is read as JSON.parse reads it (the last one), and is a DUPLICATE_KEY error:
 * a parser keeping the first one (a proxy, the upstream) may have seen another call. The reader
 * finds them (src/input/exact.ts) on every line holding one of the profile's needles or an
 * escape, with and without `--validate-all`.
 */
import type { Loc } from '../../model.js';
import { finding } from '../../report/findings.js';
import { repeatedKey } from '../../input/exact.js';
import { isWs, type ClassifyRule } from '../../input/classify.js';
import type { KeepTree } from '../keep.js';
import type { ProfileContext } from '../types.js';
import { RUN_SCOPE } from './options.js';
import type { AssayRun } from './run.js';

/** The profile's needles: a line holding none is no record of the audit, whatever it repeats. */
// `initialize` is read too: a repeated handshake is several runs in one file set.
export const ASSAY_NEEDLES = ['"assay.', '"tools/call"', '"initialize"'];

/** What the audit reads of a decision record, and of a JSON-RPC message (`corrKey`: the `_meta` key of the correlation id). */
export function assayUnique(role: 'capture' | 'rpc', corrKey: string): NonNullable<ClassifyRule['unique']> {
  const meta: KeepTree = { [corrKey]: true };
  const keys: KeepTree =
    role === 'capture'
      ? { schema: true, decision: true, correlation_id: true, tool: { name: true } }
      : { jsonrpc: true, method: true, id: true, params: { name: true, arguments: true, _meta: meta } };
  // A JSON-RPC message's keys under another letter case are reported too: Go's encoding/json (Go MCP
  // servers) matches keys case-insensitively and keeps the last, so `"Params"` after `"params"` may
  // be the call the server ran.
  return role === 'rpc' ? { keys, needles: ASSAY_NEEDLES, foldCase: true } : { keys, needles: ASSAY_NEEDLES };
}

/** The dotted paths of a key tree (`params._meta.assay.correlation_id` is one path). */
function treePaths(tree: KeepTree, prefix = '', out = new Set<string>()): Set<string> {
  for (const [k, v] of Object.entries(tree)) {
    out.add(prefix + k);
    if (v !== true) treePaths(v as KeepTree, `${prefix}${k}.`, out);
  }
  return out;
}

/**
 * `RecordHandler.repeatedKey` of a handler whose lines feed `channel` (null: a decision record, both).
 * `run`, on a JSON-RPC log: a key under another letter case (not a path of the tree) also makes the
 * delivery audit unverified (`key-case`).
 */
export function duplicateKey(channel: string | null, ctx: ProfileContext, run?: { key: string; unverify: AssayRun['unverify'] }): (key: string, loc: Loc) => void {
  const exact = run ? treePaths(assayUnique('rpc', run.key).keys) : null;
  return (key, loc) => {
    ctx.finding(finding('DUPLICATE_KEY', { channel, scope: RUN_SCOPE, locations: [loc] }, { key }));
    if (run && exact && !exact.has(key)) run.unverify('key-case', loc, { path: loc.path });
  };
}


/**
 * A record of a JSON document (`doc`: its bytes, from the document reader) is checked for the
 * same repeated keys as a line: the reader's own check sees JSONL lines only.
 */
export function checkDocumentRecord(doc: Buffer | undefined, tree: KeepTree, loc: Loc, report: (key: string, loc: Loc) => void, foldCase = false): void {
  if (!doc) return;
  let s = 0;
  let e = doc.length;
  while (s < e && isWs(doc[s]!)) s++;
  while (e > s && isWs(doc[e - 1]!)) e--;
  const key = repeatedKey(doc, s, e, tree, foldCase);
  if (key !== null) report(key, loc);
}
