/**
 * callpair as a library: `analyze()` returns the report object (`callpair.report.v1`).
 */
export { analyze, DEFAULT_MAX_FINDINGS, DEFAULT_MAX_LINE_BYTES } from './analyze.js';
export type { AnalyzeOptions } from './analyze.js';
export type * from './model.js';
export type { Report, ChannelReport, ScopeReport, CounterReport, InputLedgerReport, LatencyGroupReport } from './report/report.js';
export { REPORT_SCHEMA, ledgerViolations } from './report/report.js';
export type { Finding, FindingCode, Severity, FindingDataMap, InvalidIdInfo } from './report/findings.js';
export { FINDING_CODES } from './report/findings.js';
export type { TimelineReport, TimelineScope, TimelineCall, TimelinePoint, TimelineOptions, LatencyDistribution } from './report/timeline.js';
export type { Gate, GateCheck, GateOptions } from './report/gate.js';
export { evaluateGate, GateOptionError, parseFailOn, validateGateOptions } from './report/gate.js';
export { FORMATTERS, FORMAT_NAMES, getFormatter, needsTimeline } from './formatters/index.js';
export type { FormatName, Formatter, FormatContext } from './formatters/index.js';
export { findingMessage } from './report/messages.js';
export { VERSION } from './version.js';
export type { AssaySummary } from './report/assay.js';
export * from './compare/index.js';
export { trace, parseTarget, TRACE_SCHEMA } from './trace/trace.js';
export type { TraceReport, TraceCall, TraceEvent, TraceOpen, TraceShadow, TraceTarget, TraceOptions } from './trace/trace.js';
export { TRACE_FORMATTERS, TRACE_FORMAT_NAMES } from './formatters/index.js';
export type { TraceFormatName, TraceFormatter } from './formatters/index.js';
export { ReportMerger, mergeReports, MergeRefusal } from './merge/merge.js';
export { compareReports, withBaseline, stableKey } from './merge/diff.js';
export type { BaselineReport, ReportBaseline, BaselineState, Delta } from './merge/diff.js';
export type { RunReport, MergeDataReport } from './report/report.js';
export type { LatencySketch } from './stats/histogram.js';
