import type { ChalkInstance } from 'chalk';
import type { Report } from '../report/report.js';
import type { CompareReport } from '../compare/compare.js';
import type { PairsLine } from '../compare/pairs-line.js';
import type { TraceReport } from '../trace/trace.js';

export interface FormatContext {
  /** The one chalk instance (level 0 when colour is off); omitted: no colour (formatters/plain.ts). */
  chalk?: ChalkInstance;
  /** Directory against which capture paths are made relative (SARIF, GitHub). */
  cwd: string;
  /** Terminal width the table fits (docs/report.md); undefined: no limit. */
  width?: number;
}

export interface Formatter {
  readonly name: string;
  readonly description: string;
  /** File extension for `--report FORMAT=FILE` hints. */
  readonly extension: string;
  /** What the report must hold for this format (e.g. the html timeline): analyze options to set. */
  readonly needs?: { readonly timeline?: boolean };
  render(report: Report, ctx: FormatContext): string;
  /** The same text as `render`, in pieces, for formats whose text can be megabytes (json). */
  pieces?(report: Report, ctx: FormatContext): Iterable<string>;
}

export interface CompareRenderContext {
  /** The one chalk instance (level 0 when colour is off); omitted: no colour (formatters/plain.ts). */
  chalk?: ChalkInstance;
  /** Terminal width the tables fit; undefined: no limit. */
  width?: number;
}

/** A format of the `callpair.trace.v1` object (`trace --format`). */
export interface TraceFormatter {
  readonly name: string;
  readonly description: string;
  render(t: TraceReport, ctx: CompareRenderContext): string;
}

/** A format of the `callpair.compare.v1` object (`compare --format`). */
export interface CompareFormatter {
  readonly name: string;
  readonly description: string;
  render(c: CompareReport, ctx: CompareRenderContext): string;
}

/** A line format of the `pairs` export: one call or orphan in, its text (with newline) out, while the pass runs. */
export interface PairsFormatter {
  readonly name: string;
  readonly description: string;
  readonly extension: string;
  line(l: PairsLine): string;
}
