/**
 * A profile knows one family of records and maps each record to events, or ignores it.
 */
import type { ChannelSpec, Loc, OrphanRequestRecord, OrphanResponseRecord, PairRecord } from '../model.js';
import type { Finding } from '../report/findings.js';
import type { NoteCode } from '../report/notes.js';
import type { Source, SourceRole } from '../input/sources.js';
import type { ClassifyRule } from '../input/classify.js';
import type { BuiltEvent } from './event.js';
import type { KeepSpec } from './keep.js';

/** What became of one record. */
export type RecordOutcome = 'unclaimed' | 'ignored' | 'used' | 'duplicate';

export interface ProfileContext {
  /** Feeds an event (made by `makeEvent`, event.ts) to the pairing engine; returns the pair it made, if any. */
  emit(ev: BuiltEvent): PairRecord | null;
  finding(f: Finding): void;
}

export interface RecordHandler {
  /**
   * `raw` is the record's bytes (a view valid only during the call; lines read by a worker, `--jobs`,
   * too: the batch's buffer comes back with its values), or null for JSON documents.
   * With `keep`, `value` may be the pruned copy that `keep` returned. `doc`: the bytes of a JSON
   * document's record (never of a line), for locating records inside it (input/documents.ts).
   */
  record(value: unknown, loc: Loc, raw: Buffer | null, doc?: Buffer): RecordOutcome;
  /**
   * A line of this file that reached no handler (oversized, malformed, unusable, a failed read:
   * `reason` is the MALFORMED_LINE reason, `oversized`, `unusable` or `input-error`).
   */
  unread?(loc: Loc, reason: string): void;
  /**
   * The line at `loc` holds a key of this profile's `ClassifyRule.unique` tree twice in one object
   * (`key`: its dotted path), called before its record, in every mode (src/input/exact.ts).
   */
  repeatedKey?(key: string, loc: Loc): void;
  /** End of this file. */
  end?(): void;
}

export interface Profile {
  readonly name: string;
  readonly channels: readonly ChannelSpec[];
  /** Byte substrings one of which every record of this profile contains. */
  readonly needles: readonly string[];
  /**
   * Where this profile's records name their kind, per role of the sources it opens (data for the
   * reader's fast path, input/classify.ts). A source whose handlers all declare one is classified
   * by that key; otherwise by the needles.
   */
  readonly classify?: Partial<Record<SourceRole, ClassifyRule>>;
  /** A handler for one input file, or null when this profile never reads a file of that role. */
  open(source: Source, ctx: ProfileContext): RecordHandler | null;
  /** After every input: profile-level checks (may emit more events/findings). */
  finish?(ctx: ProfileContext): void;
  /** Profile-specific counts for `report.records[name]`. */
  summary?(): unknown;
  /** Things the report cannot tell from this input, as typed codes (the report writes their text). */
  notes?(): NoteCode[];
  /** Channels this profile could evaluate (both sides present); others are left out of the report. */
  evaluatedChannels?(): readonly string[] | null;
  /**
   * Called (synchronously, inside `ctx.emit`) when the engine reports an orphan response on one of
   * this profile's channels, so the profile can classify it with findings of its own.
   */
  orphanResponse?(o: OrphanResponseRecord, ctx: ProfileContext): void;
  /** Likewise for an orphan request (at the end of input, or evicted over --max-open-calls). */
  orphanRequest?(o: OrphanRequestRecord, ctx: ProfileContext): void;
  /**
   * What `record` reads of a value, as plain data (keep.ts): parallel readers (`--jobs`) prune
   * values with the union of the profiles' specs, so that less crosses back to the main thread.
   * Without it, values are handed over whole.
   */
  readonly keep?: KeepSpec;
  /**
   * Key paths of arrays inside a JSON document whose elements are this profile's records on their
   * own (`["log", "entries"]`): a document over --max-line-bytes is read element by element
   * (input/documents.ts), each handed to `record` with its JSON pointer in `loc.pointer`.
   */
  readonly splits?: ReadonlyArray<readonly string[]>;
}

/** Reads a field top-level first, then under `data` (docs/design.md §3.1). */
export function field(top: Record<string, unknown>, data: Record<string, unknown> | null, key: string): unknown {
  const v = top[key];
  if (v !== undefined) return v;
  return data ? data[key] : undefined;
}

export function asObject(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

export function asString(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

export function asNumber(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
