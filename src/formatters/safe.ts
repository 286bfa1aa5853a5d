/**
 * Capture strings are hostile (docs/design.md §4). Every format that a terminal or a browser renders strips
 * ANSI/OSC sequences, C0/C1 controls and bidi overrides before printing; long strings are cut with
 * a marker; lone surrogates become U+FFFD.
 */

// CSI (ESC [ … final), OSC (ESC ] … BEL | ESC \), other ESC sequences, and 8-bit CSI/OSC.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u009b[0-?]*[ -/]*[@-~]|\u009d[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[@-_]?/g;
// C0 (except none: tab/newline are also replaced, a table cell is one line), DEL, C1, bidi controls,
// line/paragraph separators (U+2028/2029 break lines in terminals and editors), and lone surrogates.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const DEFAULT_MAX_TEXT = 200;

/**
 * A report note's length shown whole: notes are callpair's own sentences (some naming paths), longer
 * than a cell, and the advice is at their end (docs/report.md: a note is never cut but here).
 */
export const NOTE_MAX = 2000;

/** Text safe for a terminal or a browser text node: no escape sequences, no controls, no bidi, bounded. */
export function safeText(s: string, max = DEFAULT_MAX_TEXT): string {
  let out = s.replace(ANSI, '').replace(CONTROLS, (c) => (c.length === 1 && c.charCodeAt(0) >= 0xd800 && c.charCodeAt(0) <= 0xdfff ? '\ufffd' : ''));
  if (out.length > max) {
    let cut = max - 1;
    // Never split a surrogate pair.
    const code = out.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--;
    out = clipped(out, cut);
  }
  return out;
}

/**
 * `s` cut after `cut` code units with a `…[+N chars]` marker, or `s` whole when the marked form
 * would be no shorter: a cut never makes a value longer than it is.
 */
function clipped(s: string, cut: number): string {
  const marked = `${s.slice(0, cut)}…[+${s.length - cut} chars]`;
  return marked.length < s.length ? marked : s;
}

/**
 * Longest finding message the table, Markdown and JUnit carry whole, in UTF-16 code units. A
 * message holds at most a few capture strings, each clipped to 1 024 (src/profiles/clip.ts), so
 * this cuts only a message built from several long ones; the JSON report always holds it whole.
 */
export const MESSAGE_MAX = 2000;

/**
 * A finding message for a report: sanitised as by safeText, whole up to `max`; a longer one is cut
 * and says so, with how many characters (code points) were left out and where they are.
 */
export function messageText(s: string, max = MESSAGE_MAX): string {
  const clean = safeText(s, Infinity);
  if (clean.length <= max) return clean;
  let cut = max;
  // Never split a surrogate pair.
  const code = clean.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  const rest = clean.slice(cut);
  const left = rest.length - (rest.match(/[\ud800-\udbff][\udc00-\udfff]/g)?.length ?? 0);
  return `${clean.slice(0, cut)}… (${left} more characters; see the JSON report)`;
}

/** Does the string hold anything safeText would remove? */
export function hasUnsafe(s: string): boolean {
  ANSI.lastIndex = 0;
  CONTROLS.lastIndex = 0;
  const r = ANSI.test(s) || CONTROLS.test(s);
  ANSI.lastIndex = 0;
  CONTROLS.lastIndex = 0;
  return r;
}

/**
 * `path:line`, and `#pointer` when the record is one of several a value holds (a HAR entry, a
 * custom `records` path: they may share a line), as `trace PATH:LINE#POINTER` takes it (docs/trace.md).
 */
export function loc(l: { path: string; line: number; pointer?: string } | null | undefined): string {
  return l ? `${safeText(l.path, 400)}:${l.line}${l.pointer ? `#${safeText(l.pointer, 200)}` : ''}` : '—';
}

/**
 * Text made safe for one line of a terminal: C0/C1 controls (ESC, newline, CR…), DEL, bidi
 * controls, line separators and lone surrogates are written as visible escapes (`\x1b`, `\u202e`),
 * never raw; long text is cut with a marker.
 */
export function oneLine(s: string, max = 2000): string {
  let out = s.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  if (out.length > max) out = clipped(out, max);
  return out;
}
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** An argument (a path, a value) quoted into a diagnostic: escaped as by `oneLine`, at most 300 chars. */
export function displayArg(s: string): string {
  return oneLine(s, 300);
}
