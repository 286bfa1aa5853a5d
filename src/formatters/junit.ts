/**
 * JUnit XML: one `<testsuite>` per input capture, one `<testcase>` per gate check and channel (each
 * channel with events in the run). A check that failed fails its testcase in every capture and
 * channel holding one of its offenders, with a `<failure>` listing them as `path:line`; an offender
 * that belongs to no channel (a record the run could not use) fails the check in every channel of
 * its capture, and a failed check with no located offender (e.g. `min-id-coverage`) fails in every
 * case, since it is about the whole run. A testcase's `classname` is
 * `callpair.<capture path>.<channel>`, so readers keep each capture's and channel's checks apart
 * (docs/ci.md#junit).
 * `time` is 0 on every suite and case, and says so in a property: a gate check is evaluated on the
 * finished report, not run and timed (docs/ci.md#junit); readers need the attribute (without it
 * they show NaN), and a measured run time would make the file differ from run to run.
 * An Assay run's delivery-audit verdict (delivery-verdict.ts) is the `delivery-audit` property of
 * every suite; its failing findings fail the gate checks that count them.
 * Text is sanitised (safeText), then XML-escaped, and stripped of every character XML 1.0 forbids.
 */
import type { Finding } from '../report/findings.js';
import type { GateCheck } from '../report/gate.js';
import type { Report } from '../report/report.js';
import type { Formatter } from './types.js';
import { messageText, safeText } from './safe.js';
import { checkFailure, offenders, offenderTotal } from './gate-text.js';
import { channelTotals } from './totals.js';
import { deliveryVerdict } from './delivery-verdict.js';

const MAX_LISTED = 200;

// Characters outside the XML 1.0 Char production (lone surrogates included).
const XML_FORBIDDEN = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\ud800-\udbff\udc00-\udfff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\ufffe\uffff]/g;

export function xmlEscape(s: string): string {
  return s
    .replace(XML_FORBIDDEN, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Capture text for XML: sanitised for display, then escaped. */
function x(s: string, max = 200): string {
  return xmlEscape(safeText(s, max));
}

function at(f: Finding): string {
  const l = f.locations[0];
  return l ? `${safeText(l.path, 400)}:${l.line}${l.pointer ? `#${safeText(l.pointer, 200)}` : ''}` : '(no location)';
}

interface Case {
  check: GateCheck;
  /** The channel this case covers (null: the run has no channel with events). */
  channel: string | null;
  failed: boolean;
  listed: Finding[];
}

/** Per failed check: its offenders grouped by the path of their first location (computed once). */
interface CheckOffenders {
  check: GateCheck;
  all: Finding[];
  byPath: Map<string, Finding[]> | null;
}

function offendersByCheck(report: Report): CheckOffenders[] {
  return report.gate.checks.map((check) => {
    if (check.passed) return { check, all: [], byPath: null };
    const all = offenders(report, check);
    const located = all.filter((f) => f.locations.length > 0);
    if (located.length === 0) return { check, all, byPath: null };
    const byPath = new Map<string, Finding[]>();
    for (const f of located) {
      const p = f.locations[0]!.path;
      let list = byPath.get(p);
      if (!list) byPath.set(p, (list = []));
      list.push(f);
    }
    return { check, all, byPath };
  });
}

function casesFor(checks: readonly CheckOffenders[], path: string | null, channels: readonly (string | null)[]): Case[] {
  return channels.flatMap((channel) =>
    checks.map(({ check, all, byPath }): Case => {
      if (check.passed) return { check, channel, failed: false, listed: [] };
      // A failed check with no located offender is about the whole run: it fails in every case.
      if (byPath === null || path === null) return { check, channel, failed: true, listed: all };
      // An offender of no channel fails the check in every channel of its capture.
      const mine = (byPath.get(path) ?? []).filter((f) => channel === null || f.channel === null || f.channel === channel);
      return { check, channel, failed: mine.length > 0, listed: mine };
    }),
  );
}

function testcase(report: Report, c: Case, classname: string): string {
  const name = x(c.check.name);
  const head = `    <testcase name="${name}" classname="${x(classname, 400)}" time="0"`;
  if (!c.failed) return `${head}/>`;
  const total = offenderTotal(report, c.check);
  const lines = c.listed.slice(0, MAX_LISTED).map((f) => `${at(f)} ${f.code} ${messageText(f.message)}`);
  if (c.listed.length > MAX_LISTED) lines.push(`…and ${c.listed.length - MAX_LISTED} more listed here`);
  if (total > lines.length && c.check.codes.length > 0) lines.push(`${total} offender(s) in the whole run; the report lists up to --max-findings per code`);
  const msg = checkFailure(c.check);
  return `${head}>\n      <failure message="${xmlEscape(msg)}" type="${x(c.check.name)}">${xmlEscape(lines.join('\n'))}</failure>\n    </testcase>`;
}

export function renderJunit(report: Report): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  const inputs: Array<{ path: string | null; label: string; props: Array<[string, number | string]> }> = report.inputs.map((i) => ({
    path: i.path,
    label: i.path,
    props: [
      ['profile', i.profile],
      ['lines', i.lines],
      ['records', i.records],
      ['ignored', i.ignored],
      ['malformed', i.malformed],
      ['oversized', i.oversized],
    ],
  }));
  if (inputs.length === 0) inputs.push({ path: null, label: 'callpair', props: [] });
  for (const input of inputs) input.props.push(['time', 'not measured: gate checks are evaluated on the report']);
  const delivery = deliveryVerdict(report);
  if (delivery !== null) for (const input of inputs) input.props.push(['delivery-audit', delivery]);
  // Run totals per channel (the same on every suite): calls and failed outcomes.
  for (const input of inputs) for (const t of channelTotals(report)) input.props.push([`channel.${t.channel}.pairs`, t.pairs], [`channel.${t.channel}.failed`, t.failed]);
  const checks = offendersByCheck(report);
  // The channels with events, then any channel an offender names that has none (an Assay side with
  // no message: its DELIVERY_UNVERIFIED must fail a case of its own, never land nowhere).
  const named = report.channels.map((c) => c.channel);
  for (const c of checks) for (const f of c.all) if (f.channel !== null && !named.includes(f.channel)) named.push(f.channel);
  const channels: Array<string | null> = named.length > 0 ? named : [null];
  const classname = (input: string | null, channel: string | null) => ['callpair', input, channel].filter((p) => p !== null).join('.');
  for (const input of inputs) {
    const cases = casesFor(checks, input.path, channels);
    const f = cases.filter((c) => c.failed).length;
    tests += cases.length;
    failures += f;
    const props = input.props.map(([k, v]) => `      <property name="${x(k)}" value="${x(String(v), 2000)}"/>`).join('\n');
    suites.push(
      `  <testsuite name="${x(input.label, 400)}" tests="${cases.length}" failures="${f}" errors="0" skipped="0" time="0">\n` +
        (props ? `    <properties>\n${props}\n    </properties>\n` : '') +
        cases.map((c) => testcase(report, c, classname(input.path, c.channel))).join('\n') +
        `\n  </testsuite>`,
    );
  }
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="callpair ${x(report.tool.version, 40)}" tests="${tests}" failures="${failures}" errors="0" time="0">\n` +
    suites.join('\n') +
    `\n</testsuites>\n`
  );
}

export const junit: Formatter = {
  name: 'junit',
  description: 'JUnit XML: a testsuite per capture, a testcase per gate check and channel',
  extension: 'xml',
  render: (report) => renderJunit(report),
};
