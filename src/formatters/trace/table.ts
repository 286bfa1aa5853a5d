/** `trace --format table`: the trace blocks for the terminal, fitted to its width. */
import type { TraceFormatter } from '../types.js';
import { traceBlocks } from './blocks.js';
import { fitText, fittedTable, hiddenNote } from '../present.js';
import { NO_COLOR } from '../plain.js';

export const traceTable: TraceFormatter = {
  name: 'table',
  description: 'tables for the terminal',
  render(t, { chalk = NO_COLOR, width }) {
    const out: string[] = [];
    const hidden: string[] = [];
    for (const b of traceBlocks(t)) {
      if (b.kind === 'heading') out.push('', chalk.bold.underline(b.text));
      else if (b.kind === 'text') out.push(b.tone === 'warn' ? chalk.yellow(b.text) : b.tone === 'dim' ? chalk.dim(b.text) : b.text);
      // Low-value columns go first: kind, then time (events); id (open requests); the locations (findings).
      else out.push(fittedTable(b.head, b.rows, chalk, { width, drop: b.head[0] === 'event' ? [4, 2] : b.head[0] === 'request' ? [2] : [2], hidden }));
    }
    const note = hiddenNote(hidden, chalk);
    if (note) out.push(note);
    return `${fitText(out.join('\n').replace(/^\n/, ''), width)}\n`;
  },
};
