/**
 * mention.ts: what counts as a mention of `tools/call` on a parsed caller or upstream line
 * (docs/assay.md, `wrapped`), and the byte-level test that must say yes whenever it does, so a
 * line it says no to needs no second parse.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdsToolsCall, mayMentionToolsCall, mentionsToolsCall } from './mention.js';

const bytesSay = (line: string) => mayMentionToolsCall(Buffer.from(line, 'utf8'), 0, Buffer.byteLength(line));

describe('a mention of tools/call', () => {
  it.each([
    ['tools/call', true],
    ['TOOLS/Call', true],
    ['received tools /\tcall id=1', true],
    ['tools\u200b/call', true],
    ['tools\\/call', true], // a message kept as JSON text, its slash escaped (PHP's json_encode)
    ['tools\\\\\\/call', true],
    ['tools\\u002fcall', true],
    ['\\u0074ools/call', true],
    ['tools\\n/call', true],
    ['C:\\tools/call', true],
    ['tools/list', false],
    ['toolscall', false],
    ['tools\\x2fcall', false],
  ])('%j → %s', (s, want) => {
    expect(mentionsToolsCall(s)).toBe(want);
    expect(holdsToolsCall({ a: [s] })).toBe(want);
    expect(holdsToolsCall({ [s]: 1 })).toBe(want);
  });
});

describe('nesting', () => {
  it('a message nested 8 levels deep as JSON text by an encoder writing \\ and / as \\u005c and \\u002f', () => {
    let v: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } };
    for (let d = 0; d < 8; d++) {
      const text = JSON.stringify(v).replace(/[\\/]/g, (c) => (c === '/' ? '\\u002f' : '\\u005c'));
      v = { message: text };
      expect(holdsToolsCall(v), `depth ${d + 1}`).toBe(true);
    }
  });
});

describe('cost', () => {
  it('a run of 400 000 backslashes ending in no escape is read in linear time (no regex retries per backslash)', () => {
    for (const tail of ['x', 'u12', 'tools/list']) {
      const s = `${'\\'.repeat(400_000)}${tail}`;
      const t0 = performance.now();
      expect(mentionsToolsCall(s)).toBe(false);
      expect(performance.now() - t0).toBeLessThan(1000);
    }
  });
});

describe('mayMentionToolsCall on the bytes', () => {
  it.each([
    ['{"m":"tools/call"}', true],
    ['"{\\"method\\":\\"tools\\\\/call\\"}"', true],
    ['{"m":"tools\\\\u002fcall"}', true],
    ['{"m":"tools\\n/call"}', true],
    ['{"m":"C:\\\\tools/call"}', true],
    ['{"m":"tools/list"}', false],
    ['{"jsonrpc":"2.0","id":1,"result":{}}', false],
  ])('%s → %s', (line, want) => {
    expect(bytesSay(line)).toBe(want);
  });

  it('reads only its own range', () => {
    const b = Buffer.from('{"a":"/"}\n{"m":"tools/call"}\n', 'latin1');
    expect(mayMentionToolsCall(b, 0, 9)).toBe(false);
    expect(mayMentionToolsCall(b, 10, b.length - 1)).toBe(true);
  });

  it('says yes to every line whose parsed value mentions tools/call, at any depth of JSON text (property)', () => {
    const piece = fc.constantFrom('tools', '/', 'call', 'TOOLS', 'Call', ' ', '\t', '\n', '\u200b', '\u0085', 'x', 't', 'n', '\\', '"', 'é', '\\/', '\\n', '\\u002f');
    const str = fc.array(piece, { maxLength: 12 }).map((a) => a.join(''));
    const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        str,
        fc.integer(),
        fc.array(tie('v'), { maxLength: 3 }),
        fc.dictionary(str, tie('v'), { maxKeys: 3 }),
        tie('v').map((x) => JSON.stringify(x)), // a message kept as JSON text, one level deeper
      ),
    })).v;
    fc.assert(
      fc.property(value, fc.boolean(), (v, ascii) => {
        let line = JSON.stringify(v);
        if (ascii) line = line.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        if (holdsToolsCall(v)) expect(bytesSay(line)).toBe(true);
      }),
      { numRuns: 4000 },
    );
  });
});
