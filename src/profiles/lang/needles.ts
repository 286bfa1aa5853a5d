/**
 * Needles derived from a profile (docs/profiles.md, "Needles"): byte strings one of which every
 * record the profile can use must contain, so lines without any are counted and never parsed.
 *
 * A needle is a whole JSON string token — a key or a string value with its quotes, `"type"` or
 * `"request"` — never a key–value pair, so it matches whatever spacing the writer put around the
 * colon (`"type": "re…` from Python's json.dumps as well as `"type":"re…` from JSON.stringify).
 * Each string is given in the spellings writers use: as JSON.stringify writes it (UTF-8), with
 * non-ASCII characters as `\uXXXX` escapes (Python's default `ensure_ascii`; lower- and upper-case
 * hex), and with `/` as `\/` (PHP, some Java writers).
 */

function escapeNonAscii(s: string, upper: boolean): string {
  return s.replace(/[^\u0000-\u007f]/g, (c) => {
    const h = c.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? h.toUpperCase() : h}`;
  });
}

/** The spellings of one JSON string token, quotes included. */
export function stringTokenSpellings(s: string): string[] {
  const plain = JSON.stringify(s);
  const out = new Set<string>([plain]);
  if (/[^\u0000-\u007f]/.test(plain)) {
    out.add(escapeNonAscii(plain, false));
    out.add(escapeNonAscii(plain, true));
  }
  for (const v of [...out]) if (v.includes('/')) out.add(v.replace(/\//g, '\\/'));
  return [...out];
}

/**
 * Needles from the strings a profile's records must contain (keys or string values): each marker
 * in every spelling. `null` means some record may match without any marker (a role given by the
 * input file, a role with no condition): then no needle filters, and every line is parsed.
 */
export function deriveNeedles(markers: readonly string[] | null): string[] {
  if (markers === null) return [];
  const out = new Set<string>();
  for (const m of markers) for (const n of stringTokenSpellings(m)) out.add(n);
  return [...out];
}

/** Whether a line (its bytes) contains one of the needles: the reader's test, for tests and docs. */
export function lineHasNeedle(line: Buffer | string, needles: readonly string[]): boolean {
  const b = typeof line === 'string' ? Buffer.from(line) : line;
  return needles.some((n) => b.includes(Buffer.from(n)));
}
