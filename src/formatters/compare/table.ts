/** `compare --format table`: the compare blocks as tables for the terminal. */
import type { CompareFormatter } from '../types.js';
import { cleanBlocks } from './blocks.js';
import { plainTable } from '../present.js';

export const compareTable: CompareFormatter = {
  name: 'table',
  description: 'tables for the terminal',
  render(c, { chalk }) {
    const out: string[] = [];
    for (const b of cleanBlocks(c)) {
      if (b.kind === 'heading') out.push('', chalk.bold.underline(b.text));
      else if (b.kind === 'text') out.push(b.tone === 'warn' ? chalk.yellow(b.text) : b.tone === 'dim' ? chalk.dim(b.text) : b.text);
      else {
        const tb = plainTable(b.head, chalk);
        for (const r of b.rows) tb.push(r);
        out.push(tb.toString());
      }
    }
    return `${out.join('\n')}\n`;
  },
};
