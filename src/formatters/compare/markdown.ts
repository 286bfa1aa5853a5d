/** `compare --format markdown`: the compare blocks as GitHub-flavoured Markdown. */
import type { CompareFormatter } from '../types.js';
import { blocksMarkdown, cleanBlocks } from './blocks.js';

export const compareMarkdown: CompareFormatter = {
  name: 'markdown',
  description: 'GitHub-flavoured Markdown',
  render(c) {
    return blocksMarkdown('callpair compare', cleanBlocks(c));
  },
};

