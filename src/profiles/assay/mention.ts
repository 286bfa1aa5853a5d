/**
 * Does a caller or upstream line mention `tools/call` (docs/assay.md, `wrapped`): on a parsed value,
 * in any key or string, in any letter case, once blanks, control and format characters and
 * backslashes are dropped — also after JSON escapes left inside a string are read (a message kept
 * as a JSON string inside a JSON string: `tools\/call`, `tools\u002fcall`, `tools\n/call`); and on a
 * line's bytes, a loose superset of that, so that a line it says no to needs no second parse.
 */

const TEXT = 'tools/call';

/** `s` with its blanks, control and format characters and backslashes dropped, lower case: does it hold tools/call. */
function plain(s: string): boolean {
  return s.replace(/[\s\p{Cc}\p{Cf}\\]/gu, '').toLowerCase().includes(TEXT);
}

/**
 * JSON escapes left in a string read: `\uXXXX` (behind any number of backslashes) as its character,
 * `\b \f \n \r \t` as nothing, again until nothing changes. Each pass shortens the string, and a
 * level of nesting that writes its backslash as `\u005c` makes it six times longer, so a line
 * holds few levels; the bound of 32 passes is beyond any line.
 */
function unescaped(s: string): string {
  for (let i = 0; i < 32 && s.includes('\\'); i++) {
    // Each run of backslashes is matched from its first one only (the lookbehind): linear, where
    // `\\+u` alone retries from every backslash of a long run that ends in no escape.
    const next = s.replace(/(?<!\\)\\+u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/(?<!\\)\\+[bfnrt]/g, '');
    if (next === s) break;
    s = next;
  }
  return s;
}

/** Does a string (a key or a value) mention tools/call. */
export function mentionsToolsCall(s: string): boolean {
  return s.length >= TEXT.length && (plain(s) || (s.includes('\\') && plain(unescaped(s))));
}

/**
 * Does a JSON value mention `tools/call` in any key or string inside it (iteratively, so a deep
 * value cannot overflow the stack).
 */
export function holdsToolsCall(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (mentionsToolsCall(v)) return true;
    } else if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (v !== null && typeof v === 'object')
      for (const k of Object.keys(v)) {
        if (mentionsToolsCall(k)) return true;
        stack.push((v as Record<string, unknown>)[k]);
      }
  }
  return false;
}

const BSLASH = 0x5c;
/** Shift-And masks: per byte, the positions of TEXT it matches. */
const MASK = (() => {
  const m = new Uint16Array(256);
  for (let i = 0; i < TEXT.length; i++) m[TEXT.charCodeAt(i)]! |= 1 << i;
  return m;
})();
const FOUND = 1 << (TEXT.length - 1);
const SLASH = 0x2f;
const BACKSLASH_U = Buffer.from('\\u', 'latin1');

/**
 * Whether the bytes `buf[s..e)` of a JSON line may mention tools/call as `holdsToolsCall` reads its
 * value: true whenever it does (a superset). ASCII letters are folded; bytes <= 0x20, 0x7f, every
 * non-ASCII byte and every backslash are dropped; a letter `b f n r t` right after a backslash is
 * both dropped and kept (an escape of a control character, or a letter behind an escaped
 * backslash). A line holding `\u` may spell anything: true. `times`: at least that many mentions
 * (a match never spans two JSON strings: quotes, colons and commas are kept, so each string's
 * mentions count on their own).
 */
export function mayMentionToolsCall(buf: Buffer, s: number, e: number, times = 1): boolean {
  const view = buf.subarray(s, e);
  // `/` has one spelling but `\u002f`, so a line with neither mentions nothing.
  if (view.indexOf(BACKSLASH_U) >= 0) return true;
  if (view.indexOf(SLASH) < 0) return false;
  let d = 0;
  let afterBackslash = false;
  for (let i = s; i < e; i++) {
    let c = buf[i]!;
    if (c <= 0x20 || c >= 0x7f) continue;
    if (c === BSLASH) {
      afterBackslash = true;
      continue;
    }
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    const step = ((d << 1) | 1) & MASK[c]!;
    if (afterBackslash && (c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74)) d |= step;
    else d = step;
    afterBackslash = false;
    if (d & FOUND) {
      if (--times === 0) return true;
      d = 0;
    }
  }
  return false;
}
