/**
 * Hostile strings through EVERY registered format (FORMATTERS is iterated, so a format
 * added to the registry is covered without touching this file):
 * - nothing raw reaches the reader: no ESC/CSI/OSC, C0 (except newline/tab), DEL, C1, bidi
 *   controls, line/paragraph separators, or lone surrogates in any output;
 * - long capture strings are cut with a marker;
 * - an invalid correlation id appears in no output at all (byte check), only its reason, length
 *   and hash prefix;
 * - `__proto__` / `constructor` as scope names and as record keys are plain data.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Chalk } from 'chalk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { FORMATTERS } from '../src/formatters/index.js';
import { ledgerViolations, type Report } from '../src/report/report.js';
import { sha256Prefix } from '../src/profiles/ids.js';
import { runCli, tmpDir } from './helpers.js';
import { fcParams, FUZZ_TEST_TIMEOUT, HOSTILE_PIECES, hostileString } from './hostile-gen.js';

const FORMATS = Object.entries(FORMATTERS);
/** Formats whose purpose is machine processing: they escape, and may keep a string whole up to the profile's clip. */
const DATA_FORMATS = new Set(['json', 'ndjson']);
/**
 * Formats that never go through an HTML/XML renderer as markup: JSON data (escaped data), the
 * terminal table, GitHub workflow commands (plain text). Every other format (markdown, html,
 * junit, and any format added later) must escape capture markup.
 */
const NO_MARKUP_FORMATS = new Set(['json', 'ndjson', 'sarif', 'table', 'github']);

// Raw characters that must never reach a reader: C0 except \t \n, DEL, C1, bidi, LS/PS, lone surrogates.
const RAW_UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const LONG = `LONGSTART${'x'.repeat(20_000)}LONGEND`;
const MARK = 'SECRETIDMARK';
/** Ids that fail the safe-shape rule, each carrying a marker that must never be written. */
const INVALID_IDS: unknown[] = [
  `${MARK} with space`,
  `${MARK}.dotted`,
  `${MARK}\u001b[31m`,
  `${MARK}${'A'.repeat(200)}`,
  `${MARK}/../../etc/passwd`,
  `<${MARK}>`,
  { [MARK]: 1 },
  [MARK],
  98765432123456789,
];
const INVALID_NUMBER_TEXT = '98765432123456789';

function rec(event: string, o: { session?: unknown; id?: unknown; ts: string; provider?: unknown; model?: unknown; caller?: unknown; status?: unknown; error?: unknown }): string {
  const data: Record<string, unknown> = {};
  if (o.provider !== undefined) data.provider = o.provider;
  if (o.model !== undefined) data.model = o.model;
  if (o.caller !== undefined) data.caller = o.caller;
  if (o.error !== undefined) data.error = o.error;
  const r: Record<string, unknown> = { ts: o.ts, event, session_id: o.session ?? 'S' };
  if (o.id !== undefined) r.request_id = o.id;
  if (o.status !== undefined) r.status = o.status;
  r.data = data;
  return JSON.stringify(r);
}

/** A capture where every string the capture supplies is hostile, with pairs, crossed pairs, orphans and invalid ids. */
function hostileCapture(): string[] {
  const lines: string[] = [];
  let t = Date.parse('2026-09-01T00:00:00Z');
  const ts = () => new Date((t += 7)).toISOString();
  const strings = [...HOSTILE_PIECES, LONG];
  strings.forEach((h, k) => {
    // Two calls in flight, answered in reverse: an id pair crossed under FIFO, latency grouped by hostile provider/model.
    lines.push(rec('llm:request', { session: h, id: `a${k}`, ts: ts(), provider: h, model: h, caller: h }));
    lines.push(rec('llm:request', { session: h, id: `b${k}`, ts: ts(), provider: h, model: `${h}2`, caller: `${h}-bg` }));
    lines.push(rec('llm:response', { session: h, id: `b${k}`, ts: ts(), provider: h, model: `${h}2`, caller: `${h}-bg`, status: h, error: h }));
    lines.push(rec('llm:response', { session: h, id: `a${k}`, ts: ts(), provider: h, model: h, caller: h, status: 'error', error: { msg: h } }));
    // An orphan request and an orphan response with hostile callers, and a duplicate id.
    lines.push(rec('llm:request', { session: h, ts: ts(), provider: h, caller: h }));
    lines.push(rec('provider:error', { session: `${h}-other`, ts: ts(), provider: h, error: h }));
    lines.push(rec('llm:request', { session: h, id: `d${k}`, ts: ts(), caller: h }));
    lines.push(rec('llm:request', { session: h, id: `d${k}`, ts: ts(), caller: h }));
  });
  INVALID_IDS.forEach((id, k) => {
    lines.push(rec('llm:request', { session: `inv${k}`, id, ts: ts(), provider: 'p', caller: 'c' }));
    lines.push(rec('llm:response', { session: `inv${k}`, id, ts: ts(), provider: 'p', caller: 'c' }));
    lines.push(rec('provider:error', { session: `inv${k}`, id, ts: ts(), provider: 'p' }));
  });
  // Prototype keys as record keys: own data, never a prototype.
  lines.push('{"event":"llm:request","session_id":"__proto__","request_id":"p1","__proto__":{"request_id":"polluted"},"data":{"__proto__":{"provider":"polluted","caller":"polluted"},"constructor":{"prototype":{"x":1}}}}');
  lines.push('{"event":"llm:response","session_id":"__proto__","request_id":"p1","data":{"provider":"p"}}');
  lines.push('{"event":"llm:request","session_id":"constructor","request_id":"__proto__","data":{"caller":"constructor"}}');
  lines.push('{"event":"llm:response","session_id":"constructor","request_id":"__proto__","data":{"caller":"constructor"}}');
  return lines;
}

function renderAll(report: Report): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [name, fmt] of FORMATS) {
    for (const level of [0, 3] as const) out.push([`${name}@color${level}`, fmt.render(report, { chalk: new Chalk({ level }), cwd: process.cwd() })]);
  }
  return out;
}

/** The output without the escapes colour itself adds (only the formatter's own SGR codes). */
function withoutOwnColour(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

function assertClean(name: string, text: string): void {
  const plain = withoutOwnColour(text);
  const m = RAW_UNSAFE.exec(plain);
  expect(m, `${name}: raw ${m ? JSON.stringify(m[0]) : ''} near ${m ? JSON.stringify(plain.slice(Math.max(0, m.index - 40), m.index + 40)) : ''}`).toBeNull();
  // A capture newline must never start a new line of output (GitHub workflow commands, CSV-like readers).
  expect(text.includes('\n::error::newline injection'), `${name}: newline injection`).toBe(false);
  // No capture markup reaches a browser raw (data formats carry it as escaped data).
  if (!NO_MARKUP_FORMATS.has(name.split('@')[0]!)) {
    expect(text.includes('<script>alert(1)'), `${name}: raw <script>`).toBe(false);
    expect(text.includes('<img src=x'), `${name}: raw <img>`).toBe(false);
  }
}

describe('hostile strings through every registered format', () => {
  let report: Report;
  const dir = tmpDir();
  // A hostile file name too: paths are capture-supplied text as well.
  const sub = path.join(dir, 'in\u001b[31mred\u202e');
  mkdirSync(sub);
  const file = path.join(sub, 'cap\u0007ture\u009b.jsonl');
  writeFileSync(file, hostileCapture().join('\n') + '\n');

  it('analyzes the hostile capture with a balanced ledger and plain-data prototype keys', async () => {
    report = await analyze({ inputs: [dir] });
    expect(ledgerViolations(report)).toEqual([]);
    expect(report.inputs).toHaveLength(1);
    expect(report.totals.malformed).toBe(0);
    const llm = report.channels.find((c) => c.channel === 'llm')!;
    const scopes = new Map(llm.scopes.map((s) => [s.scope, s]));
    expect(scopes.get('__proto__')?.pairs.byMethod.id).toBeGreaterThanOrEqual(1);
    expect(scopes.get('constructor')?.pairs.byMethod.id).toBeGreaterThanOrEqual(1);
    expect(llm.crossed.fifo).toBeGreaterThan(0);
    // The record's own "__proto__" keys did not become prototypes: nothing was read from them.
    expect(JSON.stringify(report)).not.toContain('polluted');
    expect(({} as Record<string, unknown>).provider).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    // Every invalid id was reported (request, response and provider:error for each).
    expect(report.findingCounts.INVALID_ID).toBe(INVALID_IDS.length * 3);
  });

  it('nothing raw reaches the reader, in any format, with or without colour', () => {
    for (const [name, text] of renderAll(report)) assertClean(name, text);
  });

  it('long capture strings are cut with a marker in every format', () => {
    const run = /x{1100,}/;
    for (const [name, text] of renderAll(report)) {
      expect(run.test(text), `${name}: a 20 000-char capture string printed whole`).toBe(false);
      expect(text.includes('LONGEND'), `${name}: the end of a long string printed`).toBe(false);
    }
    // In the data formats the cut is marked with the cut length and a hash of the whole string.
    const json = FORMATTERS.json.render(report, { chalk: new Chalk({ level: 0 }), cwd: process.cwd() });
    expect(json).toMatch(/LONGSTARTx+…\[\+\d+ chars, sha256 [0-9a-f]{12}\]/);
  });

  it('an invalid id appears in no output at all: only its reason, length and hash prefix', () => {
    const json = FORMATTERS.json.render(report, { chalk: new Chalk({ level: 0 }), cwd: process.cwd() });
    for (const [name, text] of renderAll(report)) {
      const bytes = Buffer.from(text, 'utf8');
      expect(bytes.includes(Buffer.from(MARK)), `${name} leaks an invalid id`).toBe(false);
      expect(bytes.includes(Buffer.from(MARK.toLowerCase())), `${name} leaks an invalid id`).toBe(false);
      expect(bytes.includes(Buffer.from(INVALID_NUMBER_TEXT)), `${name} leaks a numeric invalid id`).toBe(false);
    }
    const first = `${MARK} with space`;
    expect(json).toContain(sha256Prefix(first));
    expect(json).toContain(`"length": ${first.length}`);
  });
});

describe('invalid ids never leak through the CLI, byte for byte, in every format', () => {
  it('no format written by the binary holds an invalid id', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'ids.jsonl');
    writeFileSync(file, hostileCapture().join('\n') + '\n');
    for (const name of Object.keys(FORMATTERS)) {
      const res = await runCli(['analyze', '--format', name, file]);
      expect(res.code, `${name}: ${res.stderr}`).toBe(0);
      const out = Buffer.concat([Buffer.from(res.stdout), Buffer.from(res.stderr)]);
      expect(out.includes(Buffer.from(MARK)), `${name} leaks an invalid id`).toBe(false);
      expect(out.includes(Buffer.from(INVALID_NUMBER_TEXT)), `${name} leaks a numeric invalid id`).toBe(false);
    }
  });
});

describe('fuzz: random hostile strings in every capture field stay out of every format raw', { timeout: FUZZ_TEST_TIMEOUT }, () => {
  it('holds for generated strings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostileString, { minLength: 1, maxLength: 6 }), async (hs) => {
        const lines: string[] = [];
        hs.forEach((h, k) => {
          lines.push(rec('llm:request', { session: h, id: `q${k}`, ts: '2026-09-01T00:00:00Z', provider: h, model: h, caller: h }));
          lines.push(rec('llm:request', { session: h, id: `${MARK} ${h}`, ts: '2026-09-01T00:00:01Z', provider: h, caller: h }));
          lines.push(rec('llm:response', { session: h, ts: '2026-09-01T00:00:02Z', provider: h, model: h, caller: h, error: h }));
          lines.push(rec('provider:error', { session: `${h}x`, id: `q${k}`, ts: '2026-09-01T00:00:03Z', provider: h, error: h }));
        });
        const dir = tmpDir();
        const file = path.join(dir, 'h.jsonl');
        writeFileSync(file, lines.join('\n') + '\n');
        const report = await analyze({ inputs: [file] });
        expect(ledgerViolations(report)).toEqual([]);
        for (const [name, text] of renderAll(report)) {
          assertClean(name, text);
          expect(text.includes(MARK), `${name} leaks an invalid id`).toBe(false);
        }
      }),
      fcParams(),
    );
  });
});
