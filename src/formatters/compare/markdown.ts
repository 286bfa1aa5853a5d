/** `compare --format markdown`: the compare blocks as GitHub-flavoured Markdown. */
import type { CompareFormatter } from '../types.js';
import { cleanBlocks } from './blocks.js';

/** Markdown cell: already safeText'd; escape what Markdown and HTML would act on. */
function md(s: string): string {
  return s.replace(/[\\`*_[\]<>|#]/g, (ch) => `\\${ch}`);
}

export const compareMarkdown: CompareFormatter = {
  name: 'markdown',
  description: 'GitHub-flavoured Markdown',
  render(c) {
    const out: string[] = ['## callpair compare', ''];
    for (const b of cleanBlocks(c)) {
      if (b.kind === 'heading') out.push(`### ${md(b.text)}`, '');
      else if (b.kind === 'text') out.push(b.tone === 'warn' ? `> **${md(b.text)}**` : md(b.text), '');
      else {
        out.push(`| ${b.head.map(md).join(' | ')} |`, `|${b.head.map(() => '---').join('|')}|`);
        for (const r of b.rows) out.push(`| ${r.map(md).join(' | ')} |`);
        out.push('');
      }
    }
    return `${out.join('\n').trimEnd()}\n`;
  },
};
