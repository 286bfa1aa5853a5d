/**
 * `mentionsLoosely` (classify.ts) is a superset, on a line's bytes, of what the Assay profile
 * checks on the parsed line (a case-insensitive mention of `tools/call` in any key or string once
 * blanks and control characters are dropped): a line it says no to is one the profile would have
 * ignored, so the reader may skip it (docs/assay.md, `wrapped`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mentionsLoosely } from './classify.js';

const TEXT = Buffer.from('tools/call', 'latin1');
const says = (line: string) => mentionsLoosely(Buffer.from(line, 'utf8'), 0, Buffer.byteLength(line), TEXT);

/** The profile's own test on the parsed value (logs.ts `holdsToolsCall`), restated. */
function parsedMentions(v: unknown): boolean {
  const m = (s: string) => s.replace(/[\s\p{Cc}\p{Cf}]/gu, '').toLowerCase().includes('tools/call');
  const stack = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x === 'string') {
      if (m(x)) return true;
    } else if (x !== null && typeof x === 'object')
      for (const [k, y] of Object.entries(x)) {
        if (m(k)) return true;
        stack.push(y);
      }
  }
  return false;
}

describe('mentionsLoosely', () => {
  it.each([
    ['{"m":"tools/call"}', true],
    ['{"m":"TOOLS/Call"}', true],
    ['{"m":"tools /\\tcall"}', true],
    ['{"m":"tools\\n/call"}', true],
    ['{"m":"tools\\/call"}', true],
    ['{"line":"{\\"method\\":\\"tools/call\\"}"}', true],
    ['{"m":"ttools/call"}', true],
    ['{"tools/call":1}', true],
    ['{"m":"tools/list"}', false],
    ['{"m":"tools","n":"call"}', false],
    ['{"m":"toolscall"}', false],
    ['{"jsonrpc":"2.0","id":1,"result":{}}', false],
  ])('%s → %s', (line, want) => {
    expect(says(line)).toBe(want);
  });

  it('only reads its own range', () => {
    const b = Buffer.from('{"a":1}\n{"m":"tools/call"}\n', 'latin1');
    expect(mentionsLoosely(b, 0, 7, TEXT)).toBe(false);
    expect(mentionsLoosely(b, 8, b.length - 1, TEXT)).toBe(true);
  });

  it('says yes to every line whose parsed value mentions tools/call (property)', () => {
    const piece = fc.constantFrom('tools', '/', 'call', 'TOOLS', 'Call', ' ', '\t', '\n', '\u200b', '\u0085', 'x', 't', '\\', '"', 'é');
    const str = fc.array(piece, { maxLength: 12 }).map((a) => a.join(''));
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, str, fc.integer(), fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(str, tie('v'), { maxKeys: 3 })),
    })).v;
    fc.assert(
      fc.property(value, fc.boolean(), (v, ascii) => {
        let line = JSON.stringify(v);
        // As a producer may write it: non-ASCII escaped as \uXXXX (then the reader parses the line
        // for its escape), or as UTF-8 bytes.
        if (ascii) line = line.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        if (parsedMentions(v) && !(ascii && line.includes('\\u'))) expect(says(line)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
