/**
 * Reading a saved `callpair.report.v1` (merge, render, diff, `analyze --baseline`): one file at a
 * time, so a merge of thousands of shard reports holds one shard in memory besides the merged
 * state. A report is input, possibly hostile (a CI artifact from another job): every report read
 * here is validated (src/report/validate.ts; docs/report.md, "Reading a saved report") before any
 * command sees it, and one that fails is refused with its first problem — one line, exit 2.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { InputUsageError } from '../input/sources.js';
import { REPORT_SCHEMA, type Report } from '../report/report.js';
import { reportProblem } from '../report/validate.js';
import { safeText } from '../formatters/safe.js';
import { STDIN_TOKEN } from './options.js';

export async function readReportFile(file: string): Promise<Report> {
  if (file === STDIN_TOKEN || file === '-') throw new InputUsageError('a report is read from a file, not stdin');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new InputUsageError(`cannot read ${safeText(file, 200)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let r: unknown;
  try {
    r = JSON.parse(text);
  } catch {
    throw new InputUsageError(`${safeText(file, 200)} is not JSON (a report is the output of analyze -f json)`);
  }
  if (r === null || typeof r !== 'object' || (r as { schema?: unknown }).schema !== REPORT_SCHEMA)
    throw new InputUsageError(`${safeText(file, 200)} is not a ${REPORT_SCHEMA} report`);
  const problem = reportProblem(r);
  if (problem !== null) throw new InputUsageError(`${safeText(file, 200)}: ${problem}`);
  return r as Report;
}

/**
 * Report files from arguments: files as given, a directory as its `*.json` files (recursively, in
 * sorted order) — `callpair merge reports/` works where a shell glob would exceed the argument limit.
 */
export async function reportFilesFrom(args: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const a of args) {
    let st;
    try {
      st = await stat(a);
    } catch {
      out.push(a); // reported by readReportFile
      continue;
    }
    if (st.isDirectory()) await walkJson(a, out);
    else out.push(a);
  }
  return out;
}

async function walkJson(dir: string, out: string[]): Promise<void> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await walkJson(p, out);
    else if (e.isFile() && e.name.endsWith('.json')) out.push(p);
  }
}
