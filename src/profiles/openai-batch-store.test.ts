import { describe, expect, it } from 'vitest';
import { KeyedEntries, ReadIds } from './openai-batch-store.js';

describe('KeyedEntries (the Batch profile\'s compact stores)', () => {
  it('finds the earliest entry held with an id, keeps numbers exactly and texts, and forgets removed ones', () => {
    const s = new KeyedEntries(3, 2);
    const a = s.add('x', [1, NaN, 2 ** 40], ['m', null], '/0');
    s.add('y', [-0, -5, 0.5], [null, 'p']);
    const a2 = s.add('x', [7, 8, 9], ['m', 'q']);
    expect(s.first('x')).toBe(a);
    expect([s.num(a, 0), s.num(a, 1), s.num(a, 2), s.str(a, 0), s.str(a, 1), s.pointer(a), s.id(a)]).toEqual([1, NaN, 2 ** 40, 'm', null, '/0', 'x']);
    const y = s.first('y');
    expect(Object.is(s.num(y, 0), -0)).toBe(true);
    expect([s.num(y, 1), s.num(y, 2), s.str(y, 1)]).toEqual([-5, 0.5, 'p']);
    s.remove(a);
    expect(s.first('x')).toBe(a2);
    expect(s.first('z')).toBe(-1);
    expect(s.size).toBe(2);
    expect(s.oldest()).toBe(y);
  });

  it('past many pages and rebuilds (removed entries dropped), every entry held is found with its values, in order', () => {
    const s = new KeyedEntries(1, 1);
    const n = 70_000;
    for (let i = 0; i < n; i++) s.add(`id-${i}`, [i % 3 === 0 ? i + 0.5 : i], [`t${i % 7}`], i % 1000 === 0 ? `/p${i}` : undefined);
    // Remove two in three (rebuilds run as removed entries outnumber those held).
    for (let i = 0; i < n; i++) if (i % 3 !== 0) s.remove(s.first(`id-${i}`));
    expect(s.size).toBe(Math.ceil(n / 3));
    for (let i = 0; i < n; i += 3) {
      const k = s.first(`id-${i}`);
      expect(k).toBeGreaterThanOrEqual(0);
      expect([s.num(k, 0), s.str(k, 0), s.pointer(k)]).toEqual([i + 0.5, `t${i % 7}`, i % 1000 === 0 ? `/p${i}` : undefined]);
    }
    expect(s.first('id-1')).toBe(-1);
    // Oldest first.
    const order: string[] = [];
    while (s.size > 0) {
      const k = s.oldest();
      order.push(s.id(k));
      s.remove(k);
    }
    expect(order.slice(0, 3)).toEqual(['id-0', 'id-3', 'id-6']);
    expect(order.length).toBe(Math.ceil(n / 3));
  });

  it('refuses what would not round-trip (non-ASCII, over 255 characters)', () => {
    const s = new KeyedEntries(1, 1);
    expect(() => s.add('é', [0], [null])).toThrow(/non-ASCII/);
    expect(() => s.add('a'.repeat(256), [0], [null])).toThrow(/255/);
  });
});

describe('ReadIds', () => {
  it('remembers where an id was first read, the last size/2 to size ids, and says when it forgot the id of a closed call', () => {
    const r = new ReadIds(4);
    r.add('a', { path: 'f', line: 1 }, true);
    r.add('a', { path: 'f', line: 9 }, true);
    expect(r.firstRead('a')).toEqual({ path: 'f', line: 1 });
    r.add('b', { path: 'f', line: 2 }, false);
    r.add('c', { path: 'f', line: 3, pointer: '/3' }, false);
    expect(r.forgotten).toBe(false);
    r.add('d', { path: 'f', line: 4 }, false);
    r.add('e', { path: 'f', line: 5 }, false);
    // a (closed) was dropped.
    expect(r.forgotten).toBe(true);
    expect(r.has('a')).toBe(false);
    expect(r.firstRead('c')).toEqual({ path: 'f', line: 3, pointer: '/3' });
    expect(r.has('e')).toBe(true);
  });

  it('dropping ids whose calls are still open (the engine finds their repeats) is no forgetting; closing one later is', () => {
    const r = new ReadIds(4);
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) r.add(id, { path: 'f', line: 1 }, false);
    expect(r.forgotten).toBe(false);
    r.closed('e');
    for (const id of ['g', 'h', 'i', 'j']) r.add(id, { path: 'f', line: 1 }, false);
    expect(r.forgotten).toBe(true);
  });
});
