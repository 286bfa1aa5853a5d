import { describe, expect, it } from 'vitest';
import { eachAt, formatPath, getPath, hasPath, parsePath, PathError } from './path.js';

describe('profile paths', () => {
  it('reads dotted strings, [] and [N]', () => {
    expect(parsePath('data.session_id', 'id')).toEqual([{ key: 'data' }, { key: 'session_id' }]);
    expect(parsePath('records[].record', 'records')).toEqual([{ key: 'records' }, { each: true }, { key: 'record' }]);
    expect(parsePath('choices[0].message', 'x')).toEqual([{ key: 'choices' }, { index: 0 }, { key: 'message' }]);
    expect(parsePath('[]', 'records')).toEqual([{ each: true }]);
    expect(parsePath('attributes.gen_ai\\.operation\\.name', 'x')).toEqual([{ key: 'attributes' }, { key: 'gen_ai.operation.name' }]);
  });

  it('reads array paths, so dotted keys are reachable', () => {
    const p = parsePath(['attributes', 'gen_ai.operation.name'], 'group');
    expect(getPath({ attributes: { 'gen_ai.operation.name': 'chat' } }, p)).toBe('chat');
    expect(parsePath(['records', [], 'record'], 'records')).toEqual(parsePath('records[].record', 'records'));
    expect(parsePath(['a', 2], 'x')).toEqual([{ key: 'a' }, { index: 2 }]);
    expect(formatPath(p)).toBe('attributes.gen_ai\\.operation\\.name');
  });

  it('walks nested arrays in document order', () => {
    const otlp = {
      resourceSpans: [
        { scopeSpans: [{ spans: [{ n: 1 }, { n: 2 }] }, { spans: [{ n: 3 }] }] },
        { scopeSpans: [{ spans: [{ n: 4 }] }] },
      ],
    };
    const p = parsePath('resourceSpans[].scopeSpans[].spans[]', 'records');
    expect([...eachAt(otlp, p)].map((s) => (s as { n: number }).n)).toEqual([1, 2, 3, 4]);
    expect([...eachAt({ resourceSpans: 'x' }, p)]).toEqual([]);
  });

  it('reads own properties only; null is present', () => {
    expect(getPath({ a: {} }, parsePath('a.constructor', 'x'))).toBeUndefined();
    expect(getPath(JSON.parse('{"__proto__": {"x": 1}}'), parsePath('__proto__.x', 'x'))).toBe(1);
    expect(hasPath({ error: null }, parsePath('error', 'x'))).toBe(true);
    expect(hasPath({}, parsePath('error', 'x'))).toBe(false);
  });

  it('rejects bad paths with one line naming the field and what was expected', () => {
    for (const [v, msg] of [
      ['', 'id: expected a path, got an empty string'],
      ['a..b', 'id: an empty key'],
      ['a[x]', 'id: [x] (expected [] or [N])'],
      [42, 'id: expected a path (a string like "a.b[].c" or an array of keys), got number'],
      [['a', {}], 'id[1]: expected a key (string), an index (whole number) or [] (every element), got {}'],
      [[], 'id: expected a path with at least one key'],
    ] as const) {
      expect(() => parsePath(v, 'id')).toThrow(PathError);
      expect(() => parsePath(v, 'id')).toThrow(msg);
    }
  });
});
