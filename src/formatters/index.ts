/**
 * The formatter registry: one map, from which `--format` choices, validation and types derive.
 * Formatters read the report, nothing else.
 */
import { html } from './html.js';
import { json } from './json.js';
import { table } from './table.js';
import { markdown } from './markdown.js';
import { junit } from './junit.js';
import { sarif } from './sarif.js';
import { github } from './github.js';
import { ndjson } from './ndjson.js';
import type { Formatter } from './types.js';

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

export type { Formatter, FormatContext } from './types.js';
