import { describe, expect, it } from 'vitest';
import { ChunkSearch, escapePatterns, repeatedKey } from './exact.js';

const rk = (s: string, tree = { method: true, id: true, params: { name: true } } as const) => repeatedKey(Buffer.from(s), 0, Buffer.byteLength(s), tree);

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
