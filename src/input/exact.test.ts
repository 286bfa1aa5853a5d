import { describe, expect, it } from 'vitest';
import { ByteSample, ChunkSearch, escapePatterns, repeatedKey, repeatsAnyKey } from './exact.js';
import type { KeepTree } from '../profiles/keep.js';

const rk = (s: string, tree: KeepTree = { method: true, id: true, params: { name: true } }) => repeatedKey(Buffer.from(s), 0, Buffer.byteLength(s), tree);

describe('repeatedKey', () => {
  it('names the first key of the tree written twice in one object, keys compared decoded', () => {
    expect(rk('{"method":"a","method":"b"}')).toBe('method');
    expect(rk('{"method":"a","m\\u0065thod":"b"}')).toBe('method');
    expect(rk('{ "id" : 1 , "x" : {"id": 2}, "id":3 }')).toBe('id');
    expect(rk('{"params":{"name":"a","arguments":{"name":"x"},"name":"b"}}')).toBe('params.name');
    expect(rk('{"params":{"name":"a"},"params":{"name":"b"}}')).toBe('params');
  });
  it('is null for keys outside the tree, repeats in nested objects the tree does not name, and non-objects', () => {
    expect(rk('{"x":1,"x":2,"method":"a"}')).toBeNull();
    expect(rk('{"method":"a","result":{"id":1,"id":2}}')).toBeNull();
    expect(rk('{"method":"a","s":"\\"method\\":\\"b\\""}')).toBeNull();
    expect(rk('["method","method"]')).toBeNull();
    expect(rk('{}')).toBeNull();
  });
  it('compares keys decoded: escapes, non-ASCII keys of the tree, raw and escaped, and a key that does not decode', () => {
    const tree: KeepTree = { café: true, x: { naïve: true } };
    expect(rk('{"café":1,"caf\\u00e9":2}', tree)).toBe('café');
    expect(rk('{"x":{"naïve":1,"na\\u00efve":2}}', tree)).toBe('x.naïve');
    expect(rk('{"cafe":1,"café":2,"caf\\u00e8":3}', tree)).toBeNull();
    expect(rk('{"\\u006dethod":1,"method":2}')).toBe('method');
    expect(rk('{"m\\x":1,"method":2,"method":3}')).toBeNull();
    expect(rk('{"méthod":1,"method":2}')).toBeNull();
  });
  it('reads a __proto__ key as a plain key', () => {
    expect(repeatedKey(Buffer.from('{"__proto__":1,"__proto__":2}'), 0, 30, { ['__proto__']: true })).toBe('__proto__');
  });
});

describe('ChunkSearch', () => {
  it('finds each pattern inside the line only, lines in order, and a line of its own', () => {
    const buf = Buffer.from('{"a":"x\\u0041"}\n{"a":"plain"}\n{"b":"y\\/z"}\n');
    const cs = new ChunkSearch(escapePatterns(['tools/call']));
    const lines: Array<[number, number]> = [];
    let s = 0;
    for (let nl = buf.indexOf(10); nl >= 0; nl = buf.indexOf(10, s)) {
      lines.push([s, nl]);
      s = nl + 1;
    }
    expect(lines.map(([a, b]) => cs.has(buf, a, b, true))).toEqual([true, false, true]);
    expect(lines.map(([a, b]) => new ChunkSearch(escapePatterns(['x'])).has(buf, a, b, false))).toEqual([true, false, false]);
  });
});

describe('ChunkSearch probes', () => {
  // A tiny PRNG: the same cases on every run.
  let seed = 7;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
  it('finds exactly the lines holding a pattern, whichever byte the sample makes its probe start at', () => {
    const alphabet = 'ab"/\\u.:ze ';
    for (let round = 0; round < 300; round++) {
      const pats = Array.from({ length: 1 + rnd(3) }, () => Array.from({ length: 1 + rnd(9) }, () => alphabet[rnd(alphabet.length)]).join(''));
      const lines = Array.from({ length: 1 + rnd(12) }, () => Array.from({ length: rnd(30) }, () => alphabet[rnd(alphabet.length)]).join(''));
      const buf = Buffer.from(lines.join('\n') + '\n', 'latin1');
      // The sample: this chunk, or another text (a probe then starts at any byte).
      const sample = new ByteSample();
      sample.take(round % 2 ? buf : Buffer.from(Array.from({ length: rnd(200) }, () => alphabet[rnd(alphabet.length)]).join(''), 'latin1'));
      for (const probe of [false, true]) {
        const cs = new ChunkSearch(pats.map((p) => Buffer.from(p, 'latin1')), probe);
        cs.newChunk(sample);
        let s = 0;
        for (const l of lines) {
          const e = s + l.length;
          expect(cs.has(buf, s, e, true)).toBe(pats.some((p) => l.includes(p)));
          s = e + 1;
        }
      }
    }
  });
});

describe('repeatsAnyKey', () => {
  const t = (line: string) => repeatsAnyKey(Buffer.from(line, 'utf8'), 0, Buffer.byteLength(line));
  it.each([
    ['{"a":1,"a":2}', true],
    ['{"a":{"b":1,"b":2}}', true],
    ['[{"a":1},{"a":1}]', false],
    ['{"a":{"x":1},"b":{"x":1}}', false],
    ['{"a":"\\"a\\":","b":1}', false],
    ['{"\\u0061":1,"a":2}', true],
    ['{"é":1,"\\u00e9":2}', true],
    ['{"a":[{"a":1}],"b":2}', false],
    ['"a":1', false],
  ])('%s → %s', (line, want) => {
    expect(t(line)).toBe(want);
  });
});
