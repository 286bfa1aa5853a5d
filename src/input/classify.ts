/**
 * Classifying a JSONL line by where its profile keeps its kind, instead of searching the
 * whole line for needles: the top-level keys are read from the start of the line, values before
 * the wanted key skipped, and the first top-level occurrence of each wanted key decides — read
 * the line (PARSE), or count it without parsing (SKIP), as the profiles would decide on the parsed
 * value (keys and wanted values with escapes are decoded). Anything unexpected (not an object, a
 * structure that does not scan, the key not found within SCAN_BUDGET bytes) gives FALLBACK: the
 * needle test decides, as before.
 *
 * Exact, or the exact path (docs/performance.md, "Exact or the exact path"): a wanted key seen
 * twice before the decision gives PARSE with no claiming rule; after a SKIP, the reader
 * (lines.ts) parses the line anyway when a wanted key occurs again after `decidedAt` or the line
 * holds an escape that could spell one, so a repeated key is always read as JSON.parse reads it
 * (the last one). A malformed line whose wanted key says SKIP is counted as an ignored record, as
 * a needle-less line always was.
 */

import type { KeepTree } from '../profiles/keep.js';

/**
 * Where a profile's records name their kind, for one source role (data on the Profile): the
 * top-level `key`, the kinds the profile reads (`values`, exact, or `prefixes`), and what the
 * profile does with other records — `ignored` (it claims and drops them) or `unclaimed` (the next
 * profile may take them).
 */
export interface ClassifyRule {
  key: string;
  values?: readonly string[];
  prefixes?: readonly string[];
  /**
   * Every line of a source this rule applies to is parsed, as with `--validate-all`: the profile
   * must see each one (Assay's caller and upstream logs, where any line may hide a call and a line
   * that is no JSON is one the audit could not read).
   */
  readAll?: boolean;
  /** The key holds a string that is not one of the kinds. */
  other: 'ignored' | 'unclaimed';
  /** The key is missing, or holds something else than a string. */
  absent: 'ignored' | 'unclaimed';
  /**
   * Keys (a tree, as `KeepSpec.tree`) that the profile reports when one object of a line holds
   * them twice (`RecordHandler.repeatedKey`): checked on every line that holds one of `needles`
   * or an escape, whatever the mode (exact.ts). `foldCase`: a key of the tree under another
   * letter case is reported too (exact.ts `repeatedKey`).
   */
  unique?: { keys: KeepTree; needles: readonly string[]; foldCase?: boolean };
}

export const SKIP = 0;
export const PARSE = 1;
export const FALLBACK = 2;
export type Verdict = typeof SKIP | typeof PARSE | typeof FALLBACK;

/**
 * Bytes read from the start of a line before the classifier gives up (FALLBACK). Large: skipping a
 * value that comes first (the flat `{"data": {…}, "event": …}` shape) jumps from quote to quote,
 * much cheaper than probing every needle through its text.
 */
export const SCAN_BUDGET = 1 << 20;

/** JSON's structural bytes (also read by exact.ts). */
export const QUOTE = 0x22;
export const BSLASH = 0x5c;
export const COLON = 0x3a;
export const COMMA = 0x2c;
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

const EMPTY = Buffer.alloc(0);

/** Per-key state while scanning. */
const NOT_SEEN = 0;
const STRING = 1;
const OTHER = 2;

interface KeyPlan {
  key: Buffer;
}

interface RulePlan {
  k: number;
  values: Buffer[];
  prefixes: Buffer[];
  otherSkips: boolean;
  absentSkips: boolean;
  text: { values: readonly string[]; prefixes: readonly string[] };
  /** A handler without a rule: what it does is left to the needles. */
  unknown?: true;
}

function matchesText(v: string, r: RulePlan): boolean {
  return r.text.values.includes(v) || r.text.prefixes.some((p) => v.startsWith(p));
}

export function isWs(c: number): boolean {
  return c <= 0x20 && (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d);
}

/**
 * The classifier for one source: its handlers' rules in handler order (null when some handler
 * has none: then there is no fast path for that source).
 */
export class LineClassifier {
  private readonly keys: KeyPlan[] = [];
  private readonly rules: RulePlan[] = [];
  private readonly state: Uint8Array;
  private readonly vs: Int32Array;
  private readonly ve: Int32Array;
  /** Per key: its value decoded, when it held escapes. */
  private readonly decoded: Array<string | null>;
  private readonly names: string[];
  private readonly ruleText: Array<{ values: readonly string[]; prefixes: readonly string[] }> = [];

  constructor(rules: readonly (ClassifyRule & { unknown?: true })[]) {
    for (const r of rules) {
      if (r.unknown) {
        this.rules.push({ k: -1, values: [], prefixes: [], otherSkips: false, absentSkips: false, text: { values: [], prefixes: [] }, unknown: true });
        break;
      }
      let k = this.keys.findIndex((x) => x.key.toString('utf8') === r.key);
      if (k < 0) {
        k = this.keys.length;
        this.keys.push({ key: Buffer.from(r.key, 'utf8') });
      }
      this.rules.push({
        k,
        values: (r.values ?? []).map((v) => Buffer.from(v, 'utf8')),
        prefixes: (r.prefixes ?? []).map((v) => Buffer.from(v, 'utf8')),
        otherSkips: r.other === 'ignored',
        absentSkips: r.absent === 'ignored',
        text: { values: r.values ?? [], prefixes: r.prefixes ?? [] },
      });
    }
    this.decoded = this.keys.map(() => null);
    this.names = this.keys.map((x) => x.key.toString('utf8'));
    this.state = new Uint8Array(this.keys.length);
    this.vs = new Int32Array(this.keys.length);
    this.ve = new Int32Array(this.keys.length);
  }

  /** The profiles' decision from the keys seen so far; -1 while it depends on a key not yet seen. */
  private decide(buf: Buffer, complete: boolean): number {
    for (let i = 0; i < this.rules.length; i++) {
      const r = this.rules[i]!;
      if (r.unknown) return FALLBACK;
      const st = this.state[r.k]!;
      if (st === NOT_SEEN && !complete) return -1;
      if (st === STRING) {
        const d = this.decoded[r.k];
        if (d != null ? matchesText(d, r) : this.matches(buf, this.vs[r.k]!, this.ve[r.k]!, r)) {
          this.parsedBy = i;
          return PARSE;
        }
        if (r.otherSkips) return SKIP;
      } else if (r.absentSkips) return SKIP;
    }
    // Every profile passes the record on: nobody uses it.
    return SKIP;
  }

  private matches(buf: Buffer, s: number, e: number, r: RulePlan): boolean {
    const n = e - s;
    for (const v of r.values) {
      if (v.length !== n) continue;
      let k = 0;
      while (k < n && buf[s + k] === v[k]) k++;
      if (k === n) return true;
    }
    for (const p of r.prefixes) {
      if (p.length > n) continue;
      let k = 0;
      while (k < p.length && buf[s + k] === p[k]) k++;
      if (k === p.length) return true;
    }
    return false;
  }

  /** Which wanted key the key bytes `s..e` (no escapes) are, or -1. */
  private keyIndex(buf: Buffer, s: number, e: number): number {
    const n = e - s;
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) {
      const kb = keys[i]!.key;
      if (kb.length !== n) continue;
      let k = 0;
      while (k < n && buf[s + k] === kb[k]) k++;
      if (k === n) return i;
    }
    return -1;
  }

  /** The wanted key a quoted key with escapes (`s..e`, quotes included) decodes to: -1 none, -2 undecodable. */
  private decodedKeyIndex(buf: Buffer, s: number, e: number): number {
    try {
      return this.names.indexOf(JSON.parse(buf.toString('utf8', s, e)) as string);
    } catch {
      return -2;
    }
  }

  /** After a PARSE verdict: the index of the rule (handler) that claims the line (-1: none known). */
  parsedBy = -1;
  /** After a PARSE or SKIP verdict: where the deciding value ends (a repeat of a wanted key can only follow). */
  decidedAt = 0;

  /**
   * The verdict on a line that holds none of the wanted keys (as the whole top level read would
   * give it). When it is FALLBACK, a reader that finds none of `keyTokens()` in a line may take
   * FALLBACK without the scan (lines.ts): the scan could only have ended in FALLBACK too — from
   * this verdict, or from a structure it could not read — or seen a wanted key spelled with
   * escapes, and a line holding such an escape is parsed whatever the verdict.
   */
  absentVerdict(): Verdict {
    this.state.fill(NOT_SEEN);
    return this.decide(EMPTY, true) as Verdict;
  }

  /** The wanted keys, as the quoted tokens the reader looks for again after a decision. */
  keyTokens(): Buffer[] {
    return this.names.map((n) => Buffer.from(JSON.stringify(n), 'utf8'));
  }

  /** Whether the value `v` (JSON.parse's reading of a line) is one rule `i` claims (its kind key holds one of its kinds). */
  claims(i: number, v: unknown): boolean {
    const r = this.rules[i];
    if (!r || r.unknown || v === null || typeof v !== 'object' || Array.isArray(v)) return false;
    const name = this.names[r.k]!;
    const x = Object.prototype.hasOwnProperty.call(v, name) ? (v as Record<string, unknown>)[name] : undefined;
    return typeof x === 'string' && matchesText(x, r);
  }

  /** `s..e`: the line without its leading blanks and CR. */
  verdict(buf: Buffer, s: number, e: number): Verdict {
    this.parsedBy = -1;
    if (buf[s] !== LBRACE) return FALLBACK;
    const state = this.state;
    for (let x = 0; x < state.length; x++) state[x] = NOT_SEEN;
    const lim = e - s > SCAN_BUDGET ? s + SCAN_BUDGET : e;
    let i = s + 1;
    for (;;) {
      while (i < lim && isWs(buf[i]!)) i++;
      if (i >= lim) return FALLBACK;
      let c = buf[i]!;
      if (c === RBRACE) {
        // The whole top level was read: only blanks may follow.
        i++;
        while (i < e && isWs(buf[i]!)) i++;
        if (i !== e) return FALLBACK;
        this.decidedAt = e;
        return this.decide(buf, true) as Verdict;
      }
      if (c !== QUOTE) return FALLBACK;
      // The key: plain bytes up to the next quote; one with escapes is decoded.
      const ks = i + 1;
      let j = ks;
      let escaped = false;
      while (j < lim) {
        c = buf[j]!;
        if (c === QUOTE) break;
        if (c === BSLASH) {
          escaped = true;
          break;
        }
        j++;
      }
      if (escaped) {
        const end = skipString(buf, i, lim);
        if (end < 0) return FALLBACK;
        j = end - 1;
      }
      if (j >= lim) return FALLBACK;
      const k = escaped ? this.decodedKeyIndex(buf, i, j + 1) : this.keyIndex(buf, ks, j);
      if (k === -2) return FALLBACK;
      i = j + 1;
      while (i < lim && isWs(buf[i]!)) i++;
      if (i >= lim || buf[i] !== COLON) return FALLBACK;
      i++;
      while (i < lim && isWs(buf[i]!)) i++;
      if (i >= lim) return FALLBACK;
      if (k >= 0 && this.state[k] === NOT_SEEN) {
        if (buf[i] === QUOTE) {
          const vs = i + 1;
          let q = vs;
          let esc = false;
          while (q < lim) {
            c = buf[q]!;
            if (c === QUOTE) break;
            if (c === BSLASH) {
              esc = true;
              break;
            }
            q++;
          }
          if (esc) {
            // An escaped value is decoded (JSON.parse of the string alone).
            const end = skipString(buf, i, lim);
            if (end < 0) return FALLBACK;
            try {
              this.decoded[k] = JSON.parse(buf.toString('utf8', i, end)) as string;
            } catch {
              return FALLBACK;
            }
            q = end - 1;
          } else this.decoded[k] = null;
          if (q >= lim) return FALLBACK;
          this.state[k] = STRING;
          this.vs[k] = vs;
          this.ve[k] = q;
          i = q + 1;
        } else {
          this.state[k] = OTHER;
          i = skipValue(buf, i, lim);
          if (i < 0) return FALLBACK;
        }
        const d = this.decide(buf, false);
        if (d >= 0) {
          this.decidedAt = i;
          return d as Verdict;
        }
      } else if (k >= 0) {
        // A wanted key seen twice before the decision: JSON.parse decides (the last one wins).
        this.parsedBy = -1;
        return PARSE;
      } else {
        i = skipValue(buf, i, lim);
        if (i < 0) return FALLBACK;
      }
      while (i < lim && isWs(buf[i]!)) i++;
      if (i >= lim) return FALLBACK;
      c = buf[i]!;
      if (c === COMMA) i++;
      else if (c !== RBRACE) return FALLBACK;
    }
  }

}

/** End (after the closing quote) of the string starting at `i` (a quote), or -1 before `lim`. */
export function skipString(buf: Buffer, i: number, lim: number): number {
  let p = i + 1;
  // Short strings (most keys and envelope values): a loop beats a native indexOf call.
  const near = p + 48 < lim ? p + 48 : lim;
  for (; p < near; p++) {
    const c = buf[p]!;
    if (c === QUOTE) return p + 1;
    if (c === BSLASH) break;
  }
  if (p >= lim) return -1;
  for (;;) {
    const q = buf.indexOf(QUOTE, p);
    if (q < 0 || q >= lim) return -1;
    let n = 0;
    while (buf[q - 1 - n] === BSLASH) n++;
    if ((n & 1) === 0) return q + 1;
    p = q + 1;
  }
}

/** End of the JSON value starting at `i`, or -1 when it does not end before `lim` (not validated). */
export function skipValue(buf: Buffer, i: number, lim: number): number {
  const c = buf[i]!;
  if (c === QUOTE) return skipString(buf, i, lim);
  if (c === LBRACE || c === LBRACKET) {
    let depth = 0;
    let j = i;
    while (j < lim) {
      const b = buf[j]!;
      if (b === QUOTE) {
        j = skipString(buf, j, lim);
        if (j < 0) return -1;
        continue;
      }
      if (b === LBRACE || b === LBRACKET) depth++;
      else if (b === RBRACE || b === RBRACKET) {
        if (--depth === 0) return j + 1;
      }
      j++;
    }
    return -1;
  }
  // A number or a literal: up to the next delimiter.
  let j = i;
  while (j < lim) {
    const b = buf[j]!;
    if (b === COMMA || b === RBRACE || b === RBRACKET || isWs(b)) return j === i ? -1 : j;
    j++;
  }
  return -1;
}

/**
 * A rule of one of a source's handlers, with the name of the profile that declared it; `unknown`
 * marks a handler that declares none (a line that reaches it is left to the needles).
 */
export interface SourceRule extends ClassifyRule {
  profile: string;
  unknown?: true;
}

/**
 * The rules of a source's handlers, in handler order, up to the first handler that declares none
 * for the source's role (it ends the list as `unknown`: a line no earlier profile settles goes to
 * the needles); null when the first handler declares none (no fast path).
 */
export function combineRules(rules: ReadonlyArray<{ profile: string; rule: ClassifyRule | undefined }>): SourceRule[] | null {
  const out: SourceRule[] = [];
  for (const r of rules) {
    if (r.rule === undefined) {
      if (out.length === 0) return null;
      out.push({ key: '', other: 'unclaimed', absent: 'unclaimed', profile: r.profile, unknown: true });
      break;
    }
    out.push({ ...r.rule, profile: r.profile });
  }
  return out.length ? out : null;
}
