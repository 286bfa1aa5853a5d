/** `compare --format table`: the compare blocks as tables for the terminal. */
import type { CompareFormatter } from '../types.js';
import { cleanBlocks } from './blocks.js';
import { fittedTable, fitText, hiddenNote } from '../present.js';
import { NO_COLOR } from '../plain.js';

export const compareTable: CompareFormatter = {
  name: 'table',
  description: 'tables for the terminal',
  render(c, { chalk = NO_COLOR, width }) {
    const out: string[] = [];
    const hidden: string[] = [];
    for (const b of cleanBlocks(c)) {
      if (b.kind === 'heading') out.push('', chalk.bold.underline(b.text));
      else if (b.kind === 'text') out.push(b.tone === 'warn' ? chalk.yellow(b.text) : b.tone === 'dim' ? chalk.dim(b.text) : b.text);
      else {
        out.push(fittedTable(b.head, b.rows, chalk, { width, drop: b.drop, columns: b.columns, hidden }));
      }
    }
    const note = hiddenNote(hidden, chalk);
    if (note) out.push(note);
    return `${fitText(out.join('\n'), width)}\n`;
  },
};
