/**
 * The width terminal tables fit (docs/report.md, terminal width): `COLUMNS` when set, else the
 * terminal's own width when stdout is one; none with `--wide`, or when the output goes to a file.
 */
import type { Argv } from 'yargs';

export function wideOption<T>(y: Argv<T>) {
  return y.option('wide', { type: 'boolean', default: false, describe: 'tables as wide as their content (by default they fit the terminal: COLUMNS, or its width)' });
}

export function tableWidth(a: { wide?: boolean; output?: string }, env: NodeJS.ProcessEnv = process.env, out: { isTTY?: boolean; columns?: number } = process.stdout): number | undefined {
  if (a.wide || a.output) return undefined;
  const cols = Number(env.COLUMNS);
  if (env.COLUMNS !== undefined && Number.isInteger(cols) && cols >= 20) return cols;
  if (out.isTTY === true && out.columns && out.columns >= 20) return out.columns;
  return undefined;
}
