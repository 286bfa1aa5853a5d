import { describe, expect, it } from 'vitest';
import { unionPruned, combinedKeep } from './keep.js';
import { amplifierKeep, amplifierProfile } from './amplifier.js';

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
    expect(amplifierKeep({ event: 'content_block:end', data: { x: 1 } })).toEqual({ event: 'content_block:end' });
    expect(amplifierKeep([1, 2])).toEqual([1, 2]);
    expect(amplifierKeep({ event: 'llm:response', data: [1] })).toEqual({ event: 'llm:response' });
  });

  it('unions pruned copies in the original key order', () => {
    const orig = { a: 1, b: { c: 2, d: 3, e: 4 }, f: [1] };
    expect(unionPruned(orig, { b: { e: 4 } }, { f: [1], b: { c: 2 } })).toEqual({ b: { c: 2, e: 4 }, f: [1] });
    expect(Object.keys(unionPruned(orig, { f: [1] }, { a: 1 }) as object)).toEqual(['a', 'f']);
    expect(unionPruned(orig, undefined, { a: 1 })).toEqual({ a: 1 });
  });

  it('keeps everything when a profile has no keep', () => {
    const k = combinedKeep([amplifierProfile(), { name: 'x', channels: [], needles: [], open: () => null }]);
    expect(k).toBeNull();
  });
});
