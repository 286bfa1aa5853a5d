/**
 * Every command the docs mark runnable runs as written (docs/development.md, "Runnable examples").
 *
 * A fenced block whose info string is `sh runnable` (optionally `exit=N`, default 0, and
 * `needs=PROG` to skip when PROG is not on PATH) is run with `sh -e` in a fresh directory that links
 * every top-level entry of the repository (so paths read as from the root and files written go away), with
 * `npx callpair` resolving to the built binary. Its exit code must be N. When the next fenced block
 * (only blank lines between) is a `text` block, the command's output (stdout, then stderr) must
 * match it: every shown line, in order and contiguous, with trailing spaces ignored; a line that is
 * only `…` stands for any number of omitted lines. Without a leading `…` the output must start with
 * the first shown line, without a trailing `…` it must end with the last.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, tmpDir } from './helpers.js';

export interface RunnableBlock {
  file: string;
  line: number;
  script: string;
  exit: number;
  needs: string[];
  expected: string | null;
  /** 1-based line of the shown-output fence, when there is one. */
  expectedLine?: number;
}

interface Fence {
  info: string;
  body: string;
  line: number;
  end: number;
}

function fences(text: string): Fence[] {
  const lines = text.split('\n');
  const out: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.startsWith(open[1]!)) body.push(lines[j++]!);
    out.push({ info: open[2]!.trim(), body: body.join('\n'), line: i + 1, end: j + 1 });
    i = j;
  }
  return out;
}

/** The runnable blocks of one Markdown text. */
export function runnableBlocks(file: string, text: string): RunnableBlock[] {
  const fs = fences(text);
  const lines = text.split('\n');
  const blocks: RunnableBlock[] = [];
  fs.forEach((f, k) => {
    const words = f.info.split(/\s+/);
    if (words[0] !== 'sh' || !words.includes('runnable')) return;
    const attr = (name: string) => words.filter((w) => w.startsWith(`${name}=`)).map((w) => w.slice(name.length + 1));
    const next = fs[k + 1];
    const between = next ? lines.slice(f.end, next.line - 1) : [];
    const expected = next && next.info.split(/\s+/)[0] === 'text' && between.every((l) => l.trim() === '') ? next.body : null;
    const block: RunnableBlock = { file, line: f.line, script: f.body, exit: Number(attr('exit')[0] ?? 0), needs: attr('needs'), expected };
    if (expected !== null) block.expectedLine = next!.line;
    blocks.push(block);
  });
  return blocks;
}

/** Whether `actual` shows every line of `expected` (with `…` elisions), as documented above. */
export function matchesShown(expected: string, actual: string): string | null {
  const norm = (s: string) => s.replace(/\n$/, '').split('\n').map((l) => l.replace(/\s+$/, ''));
  const want = norm(expected);
  const got = norm(actual);
  const segments: string[][] = [[]];
  for (const l of want) {
    if (l.trim() === '…') segments.push([]);
    else segments[segments.length - 1]!.push(l);
  }
  const anchoredStart = want[0]?.trim() !== '…';
  const anchoredEnd = want[want.length - 1]?.trim() !== '…';
  let pos = 0;
  for (let s = 0; s < segments.length; s++) {
    const seg = segments[s]!;
    if (seg.length === 0) continue;
    const fits = (at: number) => seg.every((l, i) => got[at + i] === l);
    let at = -1;
    if (s === 0 && anchoredStart) at = fits(0) ? 0 : -1;
    else if (s === segments.length - 1 && anchoredEnd) at = got.length - seg.length >= pos && fits(got.length - seg.length) ? got.length - seg.length : -1;
    else for (let i = pos; i + seg.length <= got.length; i++) if (fits(i)) { at = i; break; }
    if (at < 0) return `shown lines not found in order (segment ${s + 1}, starting "${seg[0]}")`;
    pos = at + seg.length;
  }
  if (anchoredEnd && segments[segments.length - 1]!.length === 0 && pos !== got.length) return 'output continues after the last shown line';
  return null;
}

/**
 * `UPDATE_DOCS=1`: the shown output refreshed from what the tool printed. Each segment between `…`
 * lines is re-cut from the output between the first occurrences of its first and last lines (the
 * elisions stay where the author put them); a segment whose ends cannot be found is kept as it was.
 */
export function refreshShown(expected: string, actual: string): string {
  const norm = (s: string) => s.replace(/\n$/, '').split('\n').map((l) => l.replace(/\s+$/, ''));
  const want = norm(expected);
  const got = norm(actual);
  const out: string[] = [];
  let seg: string[] = [];
  let pos = 0;
  const flush = (first: boolean) => {
    if (seg.length === 0) return;
    const start = first ? (got[0] === seg[0] ? 0 : -1) : got.indexOf(seg[0]!, pos);
    const end = start < 0 ? -1 : got.indexOf(seg[seg.length - 1]!, start);
    if (start < 0 || end < 0) out.push(...seg);
    else {
      out.push(...got.slice(start, end + 1));
      pos = end + 1;
    }
    seg = [];
  };
  want.forEach((l, i) => {
    if (l.trim() === '…') {
      flush(out.length === 0 && i === seg.length);
      out.push(l);
    } else seg.push(l);
  });
  flush(out.length === 0);
  return out.join('\n');
}

const DOCS = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const onPath = (prog: string) => spawnSync('sh', ['-c', `command -v ${prog}`]).status === 0;

describe('the convention', () => {
  it('matches shown lines with elisions', () => {
    expect(matchesShown('a\nb', 'a\nb\n')).toBeNull();
    expect(matchesShown('a\n…\nd', 'a\nb\nc\nd')).toBeNull();
    expect(matchesShown('…\nc\n…', 'a\nb\nc\nd')).toBeNull();
    expect(matchesShown('a\nc', 'a\nb\nc')).not.toBeNull();
    expect(matchesShown('a\n…\nc', 'a\nc\nd')).not.toBeNull();
    expect(matchesShown('b\n…', 'a\nb')).not.toBeNull();
  });

  it('finds runnable blocks and their shown output', () => {
    const md = '```sh runnable exit=1\nnpx callpair x\n```\n\n```text\nout\n```\n\n```sh\nnot run\n```\n';
    expect(runnableBlocks('x.md', md)).toEqual([{ file: 'x.md', line: 1, script: 'npx callpair x', exit: 1, needs: [], expected: 'out', expectedLine: 5 }]);
  });

  it('refreshes shown output around the elisions (UPDATE_DOCS=1)', () => {
    expect(refreshShown('a\nc\n…\nz', 'a\nb\nc\nd\nz')).toBe('a\nb\nc\n…\nz');
    expect(refreshShown('…\nc\ne\n…', 'a\nc\nd\ne\nf')).toBe('…\nc\nd\ne\n…');
    expect(matchesShown(refreshShown('a\nc\n…\nz', 'a\nb\nc\nd\nz'), 'a\nb\nc\nd\nz')).toBeNull();
  });
});

describe('runnable examples in README.md and docs/', () => {
  const blocks = DOCS.flatMap((f) => runnableBlocks(f, readFileSync(path.join(ROOT, f), 'utf8')));

  it('there are some', () => {
    expect(blocks.length).toBeGreaterThan(5);
  });

  for (const b of blocks) {
    const title = `${b.file}:${b.line} ${b.script.split('\n')[0]!.slice(0, 70)}`;
    it.skipIf(b.needs.some((p) => !onPath(p)))(title, () => {
      const script = b.script.replace(/\bnpx callpair\b/g, `node ${JSON.stringify(BIN)}`);
      const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', COLUMNS: '100', CI: 'true' };
      delete env.GITHUB_STEP_SUMMARY;
      const cwd = tmpDir();
      for (const e of readdirSync(ROOT)) if (e !== '.git') symlinkSync(path.join(ROOT, e), path.join(cwd, e));
      const r = spawnSync('sh', ['-e', '-c', script], { cwd, env, encoding: 'utf8', timeout: 60_000 });
      const output = r.stdout + r.stderr;
      expect(r.status, `${title}\n${output}`).toBe(b.exit);
      if (b.expected !== null && process.env.UPDATE_DOCS === '1' && matchesShown(b.expected, output) !== null) {
        // Earlier refreshes may have moved this block: find it again by its place among the file's blocks.
        const file = path.join(ROOT, b.file);
        const text = readFileSync(file, 'utf8');
        const nth = blocks.filter((o) => o.file === b.file).indexOf(b);
        const now = runnableBlocks(b.file, text)[nth]!;
        const lines = text.split('\n');
        lines.splice(now.expectedLine!, now.expected!.split('\n').length, ...refreshShown(now.expected!, output).split('\n'));
        writeFileSync(file, lines.join('\n'));
        return;
      }
      if (b.expected !== null) expect(matchesShown(b.expected, output), `${title}\n--- printed:\n${output}`).toBeNull();
    });
  }
});
