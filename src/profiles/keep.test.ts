import { describe, expect, it } from 'vitest';
import { applyKeep, combinedKeep, unionKeep } from './keep.js';
import { amplifierKeep, amplifierProfile } from './amplifier.js';
import { assayProfile } from './assay/index.js';

describe('keep', () => {
  it('amplifier keeps what it reads and drops data.raw', () => {
    const v = {
      ts: 't',
      lvl: 'INFO',
      event: 'llm:request',
      session_id: 'S',
      request_id: 'r',
      data: { provider: 'p', model: 'm', caller: 'c', raw: { huge: 'x' }, message_count: 3 },
    };
    expect(amplifierKeep(v)).toEqual({ ts: 't', event: 'llm:request', session_id: 'S', request_id: 'r', data: { provider: 'p', model: 'm', caller: 'c' } });
    expect(amplifierKeep({ event: 'content_block:end', data: { x: 1 } })).toEqual({ event: 'content_block:end', data: {} });
    expect(amplifierKeep([1, 2])).toEqual([1, 2]);
    // A value whose tree node is not an object is kept whole.
    expect(amplifierKeep({ event: 'llm:response', data: [1] })).toEqual({ event: 'llm:response', data: [1] });
  });

  it('unions specs: what any profile reads is kept, in the original key order', () => {
    const u = unionKeep([{ tree: { b: { e: true } } }, { tree: { f: true, b: { c: true } } }]);
    const orig = { a: 1, b: { c: 2, d: 3, e: 4 }, f: [1] };
    expect(applyKeep(u, orig)).toEqual({ b: { c: 2, e: 4 }, f: [1] });
    expect(Object.keys(applyKeep(unionKeep([{ tree: { f: true } }, { tree: { a: true } }]), orig) as object)).toEqual(['a', 'f']);
    expect(JSON.parse(JSON.stringify(u))).toEqual(u); // plain data: it crosses to workers
  });

  it('keeps a record whole when a whole rule matches', () => {
    const spec = { tree: { x: true as const }, whole: [{ key: 'schema', prefixes: ['assay.'] }] };
    expect(applyKeep(spec, { schema: 'assay.tool.decision', y: 1 })).toEqual({ schema: 'assay.tool.decision', y: 1 });
    expect(applyKeep(spec, { schema: 'other', x: 1, y: 1 })).toEqual({ x: 1 });
  });

  it('prunes under --profile auto (every built-in profile declares keep)', () => {
    const k = combinedKeep([amplifierProfile(), assayProfile({})]);
    expect(k).not.toBeNull();
    expect(applyKeep(k!, { event: 'llm:request', data: { raw: 'x', model: 'm' }, method: 'tools/call', params: { name: 't', arguments: { big: 1 } } })).toEqual({
      event: 'llm:request',
      data: { model: 'm' },
      method: 'tools/call',
      params: { name: 't' },
    });
  });

  it('keeps a key named __proto__ as an own property', () => {
    const v = JSON.parse('{"__proto__": {"a": 1}, "b": 2}');
    const out = applyKeep({ tree: { ['__proto__']: true } as never }, v) as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('keeps everything when a profile has no keep', () => {
    const k = combinedKeep([amplifierProfile(), { name: 'x', channels: [], needles: [], open: () => null }]);
    expect(k).toBeNull();
  });
});
