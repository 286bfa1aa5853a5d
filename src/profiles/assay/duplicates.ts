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

/** The profile's needles: a line holding none is no record of the audit, whatever it repeats. */
// `initialize` is read too: a repeated handshake is several runs in one file set.
export const ASSAY_NEEDLES = ['"assay.', '"tools/call"', '"initialize"'];

/** What the audit reads of a decision record, and of a JSON-RPC message (`corrKey`: the `_meta` key of the correlation id). */
export function assayUnique(role: 'capture' | 'rpc', corrKey: string): NonNullable<ClassifyRule['unique']> {
  const meta: KeepTree = { [corrKey]: true };
  const keys: KeepTree =
    role === 'capture'
      ? { schema: true, decision: true, correlation_id: true, tool: { name: true } }
      : { jsonrpc: true, method: true, id: true, params: { name: true, _meta: meta } };
  return { keys, needles: ASSAY_NEEDLES };
}

/** `RecordHandler.repeatedKey` of a handler whose lines feed `channel` (null: a decision record, both). */
export function duplicateKey(channel: string | null, ctx: ProfileContext): (key: string, loc: Loc) => void {
  return (key, loc) => ctx.finding(finding('DUPLICATE_KEY', { channel, scope: RUN_SCOPE, locations: [loc] }, { key }));
}


/**
 * A record of a JSON document (`doc`: its bytes, from the document reader) is checked for the
 * same repeated keys as a line: the reader's own check sees JSONL lines only.
 */
export function checkDocumentRecord(doc: Buffer | undefined, tree: KeepTree, loc: Loc, report: (key: string, loc: Loc) => void): void {
  if (!doc) return;
  let s = 0;
  let e = doc.length;
  while (s < e && isWs(doc[s]!)) s++;
  while (e > s && isWs(doc[e - 1]!)) e--;
  const key = repeatedKey(doc, s, e, tree);
  if (key !== null) report(key, loc);
}
