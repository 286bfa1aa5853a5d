/**
 * What the compare formatters (`compare-table.ts`, `compare-markdown.ts`) show of the
 * `callpair.compare.v1` object, as one list of blocks, so both show the same things; every capture
 * string goes through `safeText` (and Markdown escaping in the Markdown formatter).
 */
import { loc, safeText } from '../safe.js';
import { mdText } from '../markdown.js';
import { msText, num as numText, pct, type ColumnFit } from '../present.js';
import type { AttributionRow, CompareChannel, CompareReport, Diff, StrategyCounts, StrategyName } from '../../compare/compare.js';
import { STRATEGIES } from '../../compare/compare.js';
import { worstFirst } from '../../report/worst-scopes.js';
import { fifoMeaningless, rowLabel } from '../../model.js';
import { append } from '../../arrays.js';

export type Block =
  | { kind: 'heading'; text: string }
  | { kind: 'text'; text: string; tone?: 'warn' | 'dim' }
  | { kind: 'table'; head: string[]; rows: string[][]; /** Columns dropped first on a narrow terminal. */ drop?: number[]; /** Per column: priority and kind on a narrow terminal. */ columns?: (ColumnFit | undefined)[] };

const LIST_LIMIT = 20;


function signed(n: number, ms: boolean): string {
  const body = ms ? msText(Math.abs(n)) : String(Math.abs(Math.round(n * 1000) / 1000));
  return `${n > 0 ? '+' : n < 0 ? '−' : '±'}${body}`;
}

/** `value (Δ abs, Δ%)` for fifo/signature cells; `value` alone on id rows. */
function withDiff(value: string, d: Diff | undefined, ms = false): string {
  if (!d) return value;
  if (d.abs === null) return value;
  if (d.abs === 0) return `${value} (=)`;
  const p = d.pct === null ? '' : `, ${d.pct > 0 ? '+' : d.pct < 0 ? '−' : '±'}${Math.abs(d.pct).toFixed(1)}%`;
  return `${value} (${signed(d.abs, ms)}${p})`;
}

/** `meaningless`: the channel's terminal order is arbitrary, so FIFO strategies cross nothing meaningful. */
function strategyRow(name: StrategyName, s: StrategyCounts, groundTruth: boolean, meaningless = false): string[] {
  const shadow = name !== 'id';
  return [
    name,
    String(s.pairs),
    String(s.orphanRequests),
    String(s.orphanResponses),
    shadow && meaningless ? '—' : groundTruth ? (name === 'id' ? 'truth' : String(s.crossed)) : 'n/a',
    shadow && meaningless ? '—' : groundTruth ? (name === 'id' ? '' : pct(s.crossedRate)) : 'n/a',
    shadow && meaningless ? '—' : String(s.atRisk),
  ];
}

function tokens(r: AttributionRow, field: 'inputTokens' | 'outputTokens'): string {
  const v = numText(r[field]);
  return r.unknown[field] > 0 && r[field] !== null ? `${v}†` : v;
}

/** Does any call of these rows state a token count? (HTTP, MCP and Assay calls carry none.) */
export function statesTokens(rows: readonly AttributionRow[]): boolean {
  return rows.some((r) => r.inputTokens !== null || r.outputTokens !== null);
}

const TOKEN_COLUMNS = [4, 5];

function attributionTable(rows: AttributionRow[], label: string): Block {
  const t = tableOf(rows, label);
  if (statesTokens(rows)) return t;
  // No call states a token count: two columns of n/a say nothing (said once, under the table).
  const keep = (xs: readonly string[]) => xs.filter((_, i) => !TOKEN_COLUMNS.includes(i));
  return { kind: 'table', head: keep(t.head), rows: t.rows.map(keep), drop: [6, 5] };
}

function tableOf(rows: AttributionRow[], label: string): Extract<Block, { kind: 'table' }> {
  return {
    kind: 'table',
    head: [label, 'strategy', 'calls', 'errors', 'input tokens', 'output tokens', 'latency mean', 'p50', 'p90'],
    drop: [8, 7, 5],
    rows: rows.map((r) => {
      const d = r.vsId ?? undefined;
      return [
        safeText(r.caller, 40),
        r.strategy,
        withDiff(String(r.calls), d?.calls),
        withDiff(String(r.errors), d?.errors),
        withDiff(tokens(r, 'inputTokens'), d?.inputTokens),
        withDiff(tokens(r, 'outputTokens'), d?.outputTokens),
        withDiff(msText(r.latencyMs.mean), d?.latencyMeanMs, true),
        msText(r.latencyMs.p50),
        msText(r.latencyMs.p90),
      ];
    }),
  };
}

function channelBlocks(ch: CompareChannel): Block[] {
  const out: Block[] = [];
  out.push({
    kind: 'heading',
    text: `Channel ${safeText(ch.channel)}: ${ch.scopeCount} scope(s), ${ch.requests} requests, ${ch.terminals} terminals${ch.redundant > 0 ? ` (+${ch.redundant} redundant re-reports, not compared)` : ''}, ${ch.failed} failed, max in flight ${ch.maxInFlight}`,
  });
  const meaningless = fifoMeaningless(ch.meaning);
  if (meaningless) {
    out.push({
      kind: 'text',
      tone: 'dim',
      text: 'Terminal order is arbitrary on this channel (its producer promises no order): FIFO and signature-FIFO are meaningless here, so no crossed or at-risk counts are shown for them.',
    });
  } else if (ch.groundTruth) {
    out.push({ kind: 'text', text: `Ground truth: ${ch.comparable} of ${ch.terminals} terminals paired by id; crossed = the strategy gives the terminal another request than its id does.` });
  } else {
    out.push({
      kind: 'text',
      tone: 'warn',
      text: 'No ground truth: no terminal was paired by id, so crossed pairs cannot be counted. At risk = pairs closed while more than one call was in flight.',
    });
  }
  out.push({
    kind: 'table',
    head: ['strategy', 'pairs', 'orphan requests', 'orphan responses', 'crossed', 'crossed rate', 'at risk'],
    // `at risk` is the one count without ground truth: kept; crossed columns of n/a go first.
    columns: [undefined, undefined, { priority: 2 }, { priority: 1 }, { priority: 4 }, { priority: 3 }, undefined],
    rows: STRATEGIES.map((s) => strategyRow(s, ch.strategies[s], ch.groundTruth, meaningless)),
  });

  if (ch.scopeCount > 1) {
    // Most affected by FIFO first: crossed and at-risk pairs under FIFO.
    const scopes = worstFirst(ch.scopes, (x) => [(x.strategies.fifo.crossed ?? 0) + x.strategies.fifo.atRisk], (x) => [x.scope]);
    out.push({ kind: 'text', text: `Per scope${scopes.length > LIST_LIMIT ? ` (the ${LIST_LIMIT} most affected of ${scopes.length})` : ''}:` });
    out.push({
      kind: 'table',
      head: ['scope', 'pairs (id)', 'max in flight', 'fifo crossed', 'signature crossed', 'fifo at risk', 'signature at risk'],
      columns: [{ kind: 'id' }, undefined, { priority: 1 }, { priority: 4 }, { priority: 3 }, undefined, { priority: 2 }],
      rows: scopes.slice(0, LIST_LIMIT).map((s) => [
        safeText(s.scope, 400),
        String(s.strategies.id.pairs),
        String(s.maxInFlight),
        meaningless ? '—' : s.groundTruth ? String(s.strategies.fifo.crossed) : 'n/a',
        meaningless ? '—' : s.groundTruth ? String(s.strategies.signature.crossed) : 'n/a',
        meaningless ? '—' : String(s.strategies.fifo.atRisk),
        meaningless ? '—' : String(s.strategies.signature.atRisk),
      ]),
    });
  }

  // Crossed = FIFO gave the id-paired terminal another request or none (then it is also an orphan
  // response under FIFO), as analyze counts CROSSED_PAIR.
  const fifoCrossed = meaningless ? [] : ch.crossedExamples.filter((x) => x.shadow === 'fifo').slice(0, ch.strategies.fifo.crossed ?? 0);
  if (fifoCrossed.length > 0) {
    out.push({ kind: 'text', text: `Crossed by FIFO (first ${fifoCrossed.length} of ${ch.strategies.fifo.crossed}):` });
    out.push({
      kind: 'table',
      head: ['terminal', 'true request', 'FIFO gives it'],
      columns: [{ kind: 'location' }, { kind: 'location' }, { kind: 'location' }],
      rows: fifoCrossed.map((x) => [
        loc(x.terminal),
        `${loc(x.trueRequest)} ${safeText(x.trueCaller, 30)}`,
        x.shadowRequest ? `${loc(x.shadowRequest)} ${safeText(x.shadowCaller ?? '', 30)}` : '(nothing open)',
      ]),
    });
  }
  if (ch.atRiskExamples.length > 0 && !meaningless) {
    out.push({ kind: 'text', text: `At risk under FIFO (first ${ch.atRiskExamples.length} of ${ch.strategies.fifo.atRisk}):` });
    out.push({
      kind: 'table',
      head: ['terminal', 'FIFO gives it', 'caller', 'in flight'],
      columns: [{ kind: 'location' }, { kind: 'location' }, undefined, { priority: 1 }],
      rows: ch.atRiskExamples.map((x) => [loc(x.terminal), loc(x.request), safeText(x.caller, 30), String(x.inFlight)]),
    });
  }

  if (ch.attribution.length > 0) {
    out.push({ kind: 'text', text: `Per ${safeText(rowLabel(ch.meaning), 40)} under each strategy (fifo and signature rows: value (difference against id, percent)):` });
    out.push(attributionTable(ch.attribution, safeText(rowLabel(ch.meaning), 40)));
    const unknown = ch.attribution.some((r) => (r.unknown.inputTokens > 0 && r.inputTokens !== null) || (r.unknown.outputTokens > 0 && r.outputTokens !== null));
    const notes: string[] = [];
    if (unknown) notes.push('† some calls state no token count: the sum covers the calls that do (n/a when none does).');
    if (!statesTokens(ch.attribution)) notes.push('No call of this channel states a token count: no token columns.');
    if (!ch.groundTruth) notes.push('Without ground truth the id strategy is the cascade id → signature → FIFO; differences are between guesses.');
    if (ch.evictedRequests > 0)
      notes.push(`${ch.evictedRequests} request(s) were evicted at --max-open-calls: their orphans in every strategy come from the bound, not the capture (raise --max-open-calls).`);
    if (ch.callsFolded > 0) notes.push(`${ch.callsFolded} attributions of callers beyond the caller limit are folded into (other).`);
    for (const n of notes) out.push({ kind: 'text', text: n, tone: 'dim' });
  }
  return out;
}

function blocks(c: CompareReport): Block[] {
  const out: Block[] = [];
  const t = c.totals;
  out.push({ kind: 'text', text: `callpair ${c.tool.version} compare: ${t.lines} lines, ${t.records} records` });
  if (c.channels.length === 0) out.push({ kind: 'text', text: 'No call events found.', tone: 'warn' });
  for (const ch of c.channels) append(out, channelBlocks(ch));
  return out;
}

/** Line/paragraph separators break a table row or a Markdown line; safeText keeps them, so they go here. */
function oneLine(s: string): string {
  return s.replace(/[\u2028\u2029]/g, ' ');
}

export function cleanBlocks(c: CompareReport): Block[] {
  return blocks(c).map((b) => (b.kind === 'table' ? { ...b, rows: b.rows.map((r) => r.map(oneLine)) } : { ...b, text: oneLine(b.text) }));
}

/** Markdown text: already safeText'd (and cut); escaped by the one Markdown escaping function, which also breaks autolinks. */
function md(s: string): string {
  return mdText(s, Infinity);
}

/** Blocks (compare's, trace's) as GitHub-flavoured Markdown under a `## title`. */
export function blocksMarkdown(title: string, blocks: readonly Block[]): string {
  const out: string[] = [`## ${title}`, ''];
  for (const b of blocks) {
    if (b.kind === 'heading') out.push(`### ${md(b.text)}`, '');
    else if (b.kind === 'text') out.push(b.tone === 'warn' ? `> **${md(b.text)}**` : md(b.text), '');
    else {
      out.push(`| ${b.head.map(md).join(' | ')} |`, `|${b.head.map(() => '---').join('|')}|`);
      for (const r of b.rows) out.push(`| ${r.map(md).join(' | ')} |`);
      out.push('');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}
