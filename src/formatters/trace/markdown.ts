/** `trace --format markdown`: the trace blocks as GitHub-flavoured Markdown. */
import type { TraceFormatter } from '../types.js';
import { blocksMarkdown } from '../compare/blocks.js';
import { traceBlocks } from './blocks.js';

export const traceMarkdown: TraceFormatter = {
  name: 'markdown',
  description: 'GitHub-flavoured Markdown',
  render(t) {
    return blocksMarkdown('callpair trace', traceBlocks(t));
  },
};
