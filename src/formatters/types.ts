import type { ChalkInstance } from 'chalk';
import type { Report } from '../report/report.js';

export interface FormatContext {
  /** The one chalk instance (level 0 when colour is off). */
  chalk: ChalkInstance;
  /** Directory against which capture paths are made relative (SARIF, GitHub). */
  cwd: string;
}

export interface Formatter {
  readonly name: string;
  readonly description: string;
  /** File extension for `--report FORMAT=FILE` hints. */
  readonly extension: string;
  /** What the report must hold for this format (e.g. the html timeline): analyze options to set. */
  readonly needs?: { readonly timeline?: boolean };
  render(report: Report, ctx: FormatContext): string;
}
