import { describe, expect, it } from 'vitest';
import { mdText } from './markdown.js';

describe('mdText', () => {
  it('neutralises markup, links, HTML and autolinks', () => {
    const s = mdText('**bold** _x_ `code` [link](http://evil.example) <img src=x onerror=alert(1)> a|b ~~s~~ www.evil.example a@b.example $x$ \\');
    expect(s).not.toMatch(/(?<!\\)[*_`[\]<>|~@$]/);
    expect(s).not.toMatch(/(?<!\\):\/\//);
    expect(s).toContain('www\\.evil');
    expect(s).toContain('http\\://evil');
  });
  it('strips controls and bidi before escaping', () => {
    expect(mdText('a\u001b[31mred\u001b[0m\u202eb\nc')).toBe('aredbc');
  });
});
