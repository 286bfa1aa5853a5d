/**
 * A custom profile (docs/design.md §3.3): a JSON file that declares needles, how to recognise each role,
 * and the paths of scope, id, signature fields, time and caller — so any JSONL request/response
 * log can be audited.
 *
 * ```json
 * {
 *   "name": "http-log",
 *   "channel": "http",
 *   "ordered": false,
 *   "needles": ["\"kind\":"],
 *   "role": { "path": "kind", "request": ["req"], "terminal": ["resp", "error"], "interim": ["retry"] },
 *   "scope": "conn",
 *   "id": "headers.x-request-id",
 *   "time": "at",
 *   "caller": "client",
 *   "signature": ["method", "route"],
 *   "status": "status",
 *   "group": ["route"]
 * }
 * ```
 * A path is a dotted string (`data.session_id`) or an array of keys. Only own properties are read.
 *
 * What the channel means (all optional):
 * - `"error"`: path of an error text or object on terminals;
 * - `"failed"`: when a terminal failed — `{"status": [..]}` (status is one of), `{"statusNot": [..]}`
 *   (status is known and none of), `{"statusAtLeast": 500}` (numeric status ≥), `{"error": true}`
 *   (an error is present), or an array of these (any holds). Default `{"statusNot": ["ok", "success"]}`;
 * - `"attribution"`: `"caller"` (default) or `"group"` (the first group path's value);
 * - `"rowLabel"`: what a row is called (default: `caller`, or the first group path with `"group"`);
 * - `"groupLabels"`: names of the group paths (default: the paths as written);
 * - `"idKind"`: `"correlation"` (default, the safe-shape rule) or `"protocol"` (typed string or number).
 */
import { readFileSync } from 'node:fs';
import type { CallAttrs, ChannelSpec, FailureRule, Loc, Role } from '../model.js';
import type { Source } from '../input/sources.js';
import { makeEvent } from './event.js';
import { type KeepSpec, type KeepTree, unionKeep } from './keep.js';
import { parseTime } from './time.js';
import type { Profile, ProfileContext, RecordHandler, RecordOutcome } from './types.js';
import { asNumber } from './types.js';

type Path = readonly string[];

export interface CustomProfileSpec {
  name: string;
  channel: string;
  ordered: boolean;
  needles: string[];
  role: { path: Path; request: string[]; terminal: string[]; interim: string[] };
  scope: Path | null;
  id: Path | null;
  time: Path | null;
  caller: Path | null;
  signature: Array<{ name: string; path: Path }>;
  status: Path | null;
  /** Up to two paths that name the latency group (e.g. provider, model). */
  group: Path[];
  /** Path of an error text (or object) on terminals. */
  error: Path | null;
  failure: FailureRule;
  attribution: 'caller' | 'group';
  rowLabel: string;
  groupLabels: string[];
  idKind: 'correlation' | 'protocol';
}

const DEFAULT_FAILURE: FailureRule = { kind: 'status-not-in', statuses: ['ok', 'success'] };

function failureRule(v: unknown): FailureRule {
  if (v === undefined || v === null) return DEFAULT_FAILURE;
  if (Array.isArray(v)) {
    if (v.length === 0) throw new CustomProfileError('profile: "failed" must not be an empty array');
    return { kind: 'any', rules: v.map(failureRule) };
  }
  const o = v as Record<string, unknown>;
  const keys = o !== null && typeof o === 'object' ? Object.keys(o) : [];
  if (keys.length !== 1) throw new CustomProfileError('profile: each "failed" rule is an object with one of status, statusNot, statusAtLeast, error');
  if (keys[0] === 'status') return { kind: 'status-in', statuses: strings(o.status, 'failed.status') };
  if (keys[0] === 'statusNot') return { kind: 'status-not-in', statuses: strings(o.statusNot, 'failed.statusNot') };
  if (keys[0] === 'statusAtLeast' && typeof o.statusAtLeast === 'number' && Number.isFinite(o.statusAtLeast)) return { kind: 'status-at-least', min: o.statusAtLeast };
  if (keys[0] === 'error' && o.error === true) return { kind: 'error-present' };
  throw new CustomProfileError('profile: each "failed" rule is {"status": [..]}, {"statusNot": [..]}, {"statusAtLeast": N} or {"error": true}');
}

function label(v: unknown, what: string, dflt: string): string {
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'string' && /^[A-Za-z0-9_ ./-]{1,40}$/.test(v)) return v;
  throw new CustomProfileError(`profile: ${what} must be 1–40 letters, digits, spaces or _ . / -`);
}

/** A profile file that cannot be used (a usage error). */
export class CustomProfileError extends Error {
  override name = 'CustomProfileError';
}

function toPath(v: unknown, what: string): Path {
  if (typeof v === 'string' && v.length > 0) return v.split('.');
  if (Array.isArray(v) && v.length > 0 && v.every((k) => typeof k === 'string')) return v as string[];
  throw new CustomProfileError(`profile: ${what} must be a dotted path or an array of keys`);
}

function optPath(v: unknown, what: string): Path | null {
  return v === undefined || v === null ? null : toPath(v, what);
}

function strings(v: unknown, what: string): string[] {
  if (v === undefined) return [];
  if (Array.isArray(v) && v.every((s) => typeof s === 'string')) return v as string[];
  throw new CustomProfileError(`profile: ${what} must be an array of strings`);
}

/** Validates a parsed profile file. */
export function parseCustomSpec(raw: unknown): CustomProfileSpec {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new CustomProfileError('profile: the file must hold a JSON object');
  const o = raw as Record<string, unknown>;
  const role = o.role as Record<string, unknown> | undefined;
  if (!role || typeof role !== 'object') throw new CustomProfileError('profile: "role" is required ({path, request, terminal, interim})');
  const spec: CustomProfileSpec = {
    name: typeof o.name === 'string' && o.name ? o.name : 'custom',
    channel: typeof o.channel === 'string' && o.channel ? o.channel : 'calls',
    ordered: o.ordered === true,
    needles: strings(o.needles, 'needles'),
    role: {
      path: toPath(role.path, 'role.path'),
      request: strings(role.request, 'role.request'),
      terminal: strings(role.terminal, 'role.terminal'),
      interim: strings(role.interim, 'role.interim'),
    },
    scope: optPath(o.scope, 'scope'),
    id: optPath(o.id, 'id'),
    time: optPath(o.time, 'time'),
    caller: optPath(o.caller, 'caller'),
    signature: strings(o.signature, 'signature').map((p) => ({ name: p, path: toPath(p, 'signature') })),
    status: optPath(o.status, 'status'),
    group: strings(o.group, 'group').slice(0, 2).map((p) => toPath(p, 'group')),
    error: optPath(o.error, 'error'),
    failure: failureRule(o.failed),
    attribution: 'caller',
    rowLabel: 'caller',
    groupLabels: [],
    idKind: 'correlation',
  };
  if (o.attribution !== undefined && o.attribution !== 'caller' && o.attribution !== 'group')
    throw new CustomProfileError('profile: "attribution" must be "caller" or "group"');
  if (o.attribution === 'group') {
    if (spec.group.length === 0) throw new CustomProfileError('profile: "attribution": "group" needs a "group" path');
    spec.attribution = 'group';
  }
  const groupNames = strings(o.group, 'group').slice(0, 2);
  const labels = strings(o.groupLabels, 'groupLabels');
  spec.groupLabels = groupNames.map((g, i) => label(labels[i], 'groupLabels', g.length <= 40 ? g.replace(/[^A-Za-z0-9_ ./-]/g, '_') : 'group'));
  spec.rowLabel = label(o.rowLabel, 'rowLabel', spec.attribution === 'group' ? spec.groupLabels[0]! : 'caller');
  if (o.idKind !== undefined && o.idKind !== 'correlation' && o.idKind !== 'protocol') throw new CustomProfileError('profile: "idKind" must be "correlation" or "protocol"');
  if (o.idKind === 'protocol') spec.idKind = 'protocol';
  if (spec.role.request.length === 0 || spec.role.terminal.length === 0)
    throw new CustomProfileError('profile: role.request and role.terminal must each name at least one value');
  if (spec.needles.some((n) => n.length === 0 || n.includes('\n'))) throw new CustomProfileError('profile: needles must be non-empty and hold no newline');
  return spec;
}

export function loadCustomSpec(file: string): CustomProfileSpec {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CustomProfileError(`cannot read profile ${file}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CustomProfileError(`profile ${file} is not valid JSON: ${(e as Error).message}`);
  }
  return parseCustomSpec(raw);
}

/** Reads a path of own properties; anything missing is undefined. */
export function at(v: unknown, path: Path): unknown {
  let cur: unknown = v;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, k)) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

function scalar(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

function errorValue(v: unknown): string | null {
  if (v === undefined || v === null || v === false) return null;
  const s = scalar(v);
  if (s !== null) return s;
  const o = v as Record<string, unknown>;
  if (typeof o === 'object') return scalar(o.message) ?? scalar(o.msg) ?? scalar(o.type) ?? scalar(o.code) ?? 'error';
  return null;
}

/** The channel a custom profile file declares. */
export function customChannel(spec: CustomProfileSpec): ChannelSpec {
  return {
    name: spec.channel,
    rowLabel: spec.rowLabel,
    attribution: spec.attribution === 'group' ? 'provider' : 'caller',
    groupLabels: spec.groupLabels.length >= 2 ? [spec.groupLabels[0]!, spec.groupLabels[1]!] : [spec.groupLabels[0] ?? 'group'],
    failure: spec.failure,
    idKind: spec.idKind,
    ordered: spec.ordered,
    signatureFields: spec.signature.map((s) => s.name),
  };
}

function pathTree(p: Path): KeepTree {
  let t: true | KeepTree = true;
  for (let i = p.length - 1; i >= 0; i--) t = { [p[i]!]: t } as KeepTree;
  return t as KeepTree;
}

/** Every path the profile file names: what `record` reads. */
export function customKeep(spec: CustomProfileSpec): KeepSpec {
  const paths: Path[] = [spec.role.path, ...spec.signature.map((s) => s.path), ...spec.group];
  for (const p of [spec.scope, spec.id, spec.time, spec.caller, spec.status, spec.error]) if (p) paths.push(p);
  return unionKeep(paths.map((p) => ({ tree: pathTree(p) })));
}

export function customProfile(spec: CustomProfileSpec): Profile {
  const channel = customChannel(spec);
  const roles = new Map<string, Role>();
  for (const r of spec.role.request) roles.set(r, 'request');
  for (const r of spec.role.terminal) roles.set(r, 'terminal');
  for (const r of spec.role.interim) roles.set(r, 'interim');
  return {
    name: spec.name,
    channels: [channel],
    needles: spec.needles,
    keep: customKeep(spec),
    open(source: Source, ctx: ProfileContext): RecordHandler | null {
      if (source.role !== 'capture') return null;
      return {
        record(value: unknown, loc: Loc): RecordOutcome {
          if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'unclaimed';
          const roleValue = scalar(at(value, spec.role.path));
          if (roleValue === null) return 'unclaimed';
          const role = roles.get(roleValue);
          if (!role) return 'ignored';
          const sig = spec.signature.length ? spec.signature.map((s) => scalar(at(value, s.path))) : null;
          const attrs: CallAttrs = { kind: roleValue };
          if (spec.group[0]) attrs.provider = scalar(at(value, spec.group[0]));
          if (spec.group[1]) attrs.model = scalar(at(value, spec.group[1]));
          if (role === 'terminal') {
            attrs.status = spec.status ? scalar(at(value, spec.status)) : null;
            if (spec.error) attrs.error = errorValue(at(value, spec.error));
            attrs.durationMs = null;
          }
          const timeRaw = spec.time ? at(value, spec.time) : undefined;
          const ev = makeEvent(
            channel,
            {
              role,
              scope: spec.scope ? (scalar(at(value, spec.scope)) ?? '') : '',
              id: spec.id ? { field: spec.id.join('.'), value: at(value, spec.id) } : null,
              sig,
              time: typeof timeRaw === 'number' ? asNumber(timeRaw) : parseTime(timeRaw),
              caller: (spec.caller ? scalar(at(value, spec.caller)) : null) ?? 'main',
              attrs,
              loc,
            },
            ctx,
          );
          ctx.emit(ev);
          return 'used';
        },
      };
    },
  };
}
