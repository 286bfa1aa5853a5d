/**
 * The formatter registry: one map per thing formatted (the report, the compare object, the `pairs`
 * lines), one line per formatter, from which `--format` choices, validation and types derive.
 * Formatters read what they format, nothing else.
 */
import { html } from './html.js';
import { json } from './json.js';
import { table } from './table.js';
import { markdown } from './markdown.js';
import { junit } from './junit.js';
import { sarif } from './sarif.js';
import { github } from './github.js';
import { ndjson } from './ndjson.js';
import { compareTable } from './compare/table.js';
import { compareJson } from './compare/json.js';
import { compareMarkdown } from './compare/markdown.js';
import { pairsNdjson } from './pairs-ndjson.js';
import { traceTable } from './trace/table.js';
import { traceJson } from './trace/json.js';
import { traceMarkdown } from './trace/markdown.js';
import type { CompareReport } from '../compare/compare.js';
import type { CompareFormatter, CompareRenderContext, FormatContext, Formatter, PairsFormatter, TraceFormatter } from './types.js';
import type { Report } from '../report/report.js';

export const FORMATTERS = {
  table,
  json,
  markdown,
  junit,
  sarif,
  github,
  ndjson,
  html,
} as const satisfies Record<string, Formatter>;

export type FormatName = keyof typeof FORMATTERS;
export const FORMAT_NAMES = Object.keys(FORMATTERS) as FormatName[];

export function isFormatName(s: string): s is FormatName {
  return Object.prototype.hasOwnProperty.call(FORMATTERS, s);
}

export function getFormatter(name: FormatName): Formatter {
  return FORMATTERS[name];
}

/** A report in a format: its pieces where the format writes in pieces (json), else its text. */
export function formatted(f: Formatter, report: Report, ctx: FormatContext): string | Iterable<string> {
  return f.pieces ? f.pieces(report, ctx) : f.render(report, ctx);
}

/** Does any of these formats need the report's optional timeline (analyze option `timeline`)? */
export function needsTimeline(names: readonly FormatName[]): boolean {
  return names.some((n) => FORMATTERS[n].needs?.timeline === true);
}

/** Formats of the compare object (`compare --format`). */
export const COMPARE_FORMATTERS = {
  table: compareTable,
  json: compareJson,
  markdown: compareMarkdown,
} as const satisfies Record<string, CompareFormatter>;

export type CompareFormatName = keyof typeof COMPARE_FORMATTERS;
export const COMPARE_FORMAT_NAMES = Object.keys(COMPARE_FORMATTERS) as CompareFormatName[];

export function renderCompare(c: CompareReport, format: CompareFormatName, ctx: CompareRenderContext): string {
  return COMPARE_FORMATTERS[format].render(c, ctx);
}

/** Formats of the trace object (`trace --format`). */
export const TRACE_FORMATTERS = {
  table: traceTable,
  json: traceJson,
  markdown: traceMarkdown,
} as const satisfies Record<string, TraceFormatter>;

export type TraceFormatName = keyof typeof TRACE_FORMATTERS;
export const TRACE_FORMAT_NAMES = Object.keys(TRACE_FORMATTERS) as TraceFormatName[];

/** Line formats of the `pairs` export. */
export const PAIRS_FORMATTERS = {
  ndjson: pairsNdjson,
} as const satisfies Record<string, PairsFormatter>;

export type PairsFormatName = keyof typeof PAIRS_FORMATTERS;

export type { Formatter, FormatContext, CompareFormatter, CompareRenderContext, PairsFormatter, TraceFormatter } from './types.js';
