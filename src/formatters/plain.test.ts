import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze, compare, FORMAT_NAMES, getFormatter, renderCompare, COMPARE_FORMAT_NAMES } from '../index.js';

const capture = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'orphan-crossed.jsonl');

describe('formatters from the library, without chalk', () => {
  it('every report format renders with a context that names no chalk, the table without colour', async () => {
    const report = await analyze({ inputs: [capture], timeline: true });
    for (const name of FORMAT_NAMES) {
      const text = getFormatter(name).render(report, { cwd: process.cwd() });
      expect(text.length, name).toBeGreaterThan(0);
      if (name === 'table') {
        expect(text).toContain('Channel llm');
        expect(text).not.toContain('\u001b[');
      }
    }
  });

  it('every compare format renders with an empty context', async () => {
    const c = await compare({ inputs: [capture] });
    for (const name of COMPARE_FORMAT_NAMES) expect(renderCompare(c, name, {}).length, name).toBeGreaterThan(0);
  });
});
