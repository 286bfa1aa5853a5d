/** `trace --format markdown`: the trace blocks as GitHub-flavoured Markdown. */
import type { TraceFormatter } from '../types.js';
import { traceBlocks } from './blocks.js';

/** Markdown cell: already safeText'd; escape what Markdown and HTML would act on. */
function md(s: string): string {
  return s.replace(/[\\`*_[\]<>|#]/g, (ch) => `\\${ch}`);
}

export const traceMarkdown: TraceFormatter = {
  name: 'markdown',
  description: 'GitHub-flavoured Markdown',
  render(t) {
    const out: string[] = ['## callpair trace', ''];
    for (const b of traceBlocks(t)) {
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
