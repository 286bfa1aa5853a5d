import { describe, expect, it } from 'vitest';
import { diagText } from './io.js';

const nasty = 'x\u009b31m\u202eevil\u001b]8;;e\u0007';
const clean = (s: string) => expect(s).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);

describe('every stderr line goes through the one safe-text rule', () => {
  it('diagText strips controls from each line and bounds it', () => {
    const t = diagText(`bad ${nasty}\nsecond ${'y'.repeat(5000)}`);
    clean(t.replace(/\n/g, ''));
    expect(t.split('\n')).toHaveLength(2);
    expect(t.length).toBeLessThan(1200);
  });
});
