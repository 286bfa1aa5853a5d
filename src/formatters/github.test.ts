import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty } from './github.js';

describe('workflow-command escaping', () => {
  it('escapes %, CR and LF in data, and also : and , in properties', () => {
    expect(escapeData('50%\r\nnext')).toBe('50%25%0D%0Anext');
    expect(escapeProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
  });
});
