import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseKept, asciiOnly } from './lines.js';
import { amplifierKeep } from '../profiles/amplifier.js';
import { keepFunction } from '../profiles/keep.js';

/** What the UTF-8 path gives: the kept value, or 'invalid'. */
function viaUtf8(b: Buffer): unknown {
  try {
    return amplifierKeep(JSON.parse(b.toString('utf8')));
  } catch {
    return 'invalid';
  }
}
function viaLatin1(b: Buffer): unknown {
  try {
    return parseKept(b, 0, b.length, amplifierKeep);
  } catch {
    return 'invalid';
  }
}

describe('parseKept (latin1 parse + keep)', () => {
  it('gives exactly the UTF-8 result on tricky lines', () => {
    const lines = [
      '{"event": "llm:request", "session_id": "café", "data": {"provider": "p", "raw": "ü東京"}}',
      '{"event": "llm:request", "session_id": "caf\\u00e9", "data": {"provider": "\\u00fc"}}',
      '{"event": "llm:response", "error": {"msg": "\\ud83d\\ude00 boom"}, "data": {"model": "m"}}',
      '{"event": "llm:response", "data": {"model": "m", "raw": "only here: ü"}}',
      '{"evént": "x", "event": "llm:request"}',
      '{"event": "llm:request", "event": "content_block:end"}',
      '[1, "ü"]',
      '"llm:request"',
    ];
    for (const l of lines) expect(viaLatin1(Buffer.from(l))).toEqual(viaUtf8(Buffer.from(l)));
    // Invalid UTF-8 inside and outside strings, control characters, a BOM.
    const raw = [
      Buffer.concat([Buffer.from('{"event": "llm:request", "session_id": "a'), Buffer.from([0xc3, 0x22]), Buffer.from('}')]),
      Buffer.concat([Buffer.from('{"event": "llm:request", "session_id": "a'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
      Buffer.concat([Buffer.from('{"event": "llm:request", "data": {"raw": "'), Buffer.from([0xe2, 0x80]), Buffer.from('"}}')]),
      Buffer.concat([Buffer.from('{"event": "llm:request"'), Buffer.from([0xc2, 0xa0]), Buffer.from('}')]),
      Buffer.from('{"event": "llm:request", "x": "a\u0001b"}'),
      Buffer.from('\uFEFF{"event": "llm:request"}'),
    ];
    for (const b of raw) expect(viaLatin1(b)).toEqual(viaUtf8(b));
  });

  it('agrees with the UTF-8 parse on random records', () => {
    const str = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('llm:request', 'llm:response', 'provider:error', 'ü'));
    const rec = fc.record({
      event: fc.oneof(str, fc.constantFrom('llm:request', 'llm:response', 'provider:retry')),
      session_id: str,
      request_id: fc.option(str),
      data: fc.record({ provider: str, model: str, caller: str, raw: fc.jsonValue() }, { requiredKeys: [] }),
    });
    fc.assert(
      fc.property(rec, fc.boolean(), fc.nat(40), (r, escape, cut) => {
        let text = JSON.stringify(r);
        if (escape) text = text.replace(/[^\x00-\x7f]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
        const b = Buffer.from(text);
        expect(viaLatin1(b)).toEqual(viaUtf8(b));
        const t = b.subarray(0, Math.max(0, b.length - cut));
        expect(viaLatin1(t)).toEqual(viaUtf8(t));
      }),
      { numRuns: 500 },
    );
  });

  it('asciiOnly looks at keys and strings at any depth', () => {
    expect(asciiOnly({ a: ['x', { b: 'y' }] })).toBe(true);
    expect(asciiOnly({ a: ['x', { b: 'ÿ' }] })).toBe(false);
    expect(asciiOnly({ é: 1 })).toBe(false);
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(asciiOnly(deep)).toBe(true);
  });
});

describe('parseKept with a keep that names non-ASCII keys', () => {
  it('keeps a key written in UTF-8 bytes, as the UTF-8 reading does', () => {
    const keep = keepFunction({ tree: { événement: true, a: true, 'n\u00e9': { x: true } } })!;
    for (const s of ['{"événement":"x","a":1}', '{"\u00e9v\u00e9nement":"x","a":1}', '{"né":{"x":1,"y":2},"a":"ü"}']) {
      const b = Buffer.from(s);
      expect(parseKept(b, 0, b.length, keep)).toEqual(keep(JSON.parse(s)));
    }
  });
});
