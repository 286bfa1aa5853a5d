import { describe, expect, it } from 'vitest';
import { clipText, MAX_KEPT_TEXT } from './clip.js';

describe('clipText', () => {
  it('keeps short strings as they are', () => {
    expect(clipText('anthropic')).toBe('anthropic');
    expect(clipText('x'.repeat(MAX_KEPT_TEXT))).toBe('x'.repeat(MAX_KEPT_TEXT));
  });
  it('cuts long strings with a marker naming the cut length and a hash of the whole', () => {
    const s = 'm'.repeat(5000);
    const c = clipText(s);
    expect(c.startsWith('m'.repeat(MAX_KEPT_TEXT))).toBe(true);
    expect(c).toMatch(/…\[\+3976 chars, sha256 [0-9a-f]{12}\]$/);
  });
  it('keeps two long strings with the same prefix distinct', () => {
    const a = `${'p'.repeat(2000)}a`;
    const b = `${'p'.repeat(2000)}b`;
    expect(clipText(a)).not.toBe(clipText(b));
    expect(clipText(a)).toBe(clipText(a));
  });
  it('never splits a surrogate pair', () => {
    const s = `${'x'.repeat(MAX_KEPT_TEXT - 1)}😀${'y'.repeat(10)}`;
    const c = clipText(s);
    expect(c.charCodeAt(MAX_KEPT_TEXT - 2)).toBe(0x78);
    expect(c[MAX_KEPT_TEXT - 1]).toBe('…');
  });
});
