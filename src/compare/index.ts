/**
 * compare (FIFO vs signature-FIFO vs id, per-caller attribution) and pairs (every call as NDJSON):
 * both listen to the one streaming pass of `analyze()`.
 */
export { compare, compareWithReport, attributionKey, isError, COMPARE_SCHEMA, STRATEGIES, OTHER_CALLER } from './compare.js';
export type {
  CompareReport,
  CompareChannel,
  CompareScope,
  CompareCounts,
  CompareOptions,
  StrategyName,
  StrategyCounts,
  AttributionRow,
  Diff,
  CrossedExample,
  AtRiskExample,
} from './compare.js';
export { pairs, callLine, orphanRequestLine, orphanResponseLine, pairsLineText } from './pairs.js';
export type { PairsOptions, PairsLine, CallLine, OrphanLine } from './pairs.js';
export { COMPARE_FORMATTERS, COMPARE_FORMAT_NAMES, renderCompare } from '../formatters/index.js';
export type { CompareFormatName, CompareFormatter, CompareRenderContext } from '../formatters/index.js';
