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
import type { CompareReport } from '../compare/compare.js';
import type { CompareFormatter, CompareRenderContext, Formatter, PairsFormatter } from './types.js';

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

/** Line formats of the `pairs` export. */
export const PAIRS_FORMATTERS = {
  ndjson: pairsNdjson,
} as const satisfies Record<string, PairsFormatter>;

export type PairsFormatName = keyof typeof PAIRS_FORMATTERS;

export type { Formatter, FormatContext, CompareFormatter, CompareRenderContext, PairsFormatter } from './types.js';
