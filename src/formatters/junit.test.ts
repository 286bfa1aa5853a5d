import { describe, expect, it } from 'vitest';
import { xmlEscape } from './junit.js';

describe('xmlEscape', () => {
  it('escapes markup and strips characters XML 1.0 forbids (keeps tab, LF, CR and astral characters)', () => {
    expect(xmlEscape('<a href="x">&\'</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;');
    expect(xmlEscape('a\u0000b\u0001c\u000bd\u001fe\ufffef\uffffg\ud800h\tI\nJ\rK😀')).toBe('abcdefgh\tI\nJ\rK😀');
  });
});
