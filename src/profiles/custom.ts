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
 */
import { readFileSync } from 'node:fs';
import type { CallAttrs, CallEvent, ChannelSpec, Loc, Role } from '../model.js';
import { finding } from '../report/findings.js';
import type { Source } from '../input/sources.js';
import { checkCorrelationId } from './ids.js';
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
  };
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

export function customProfile(spec: CustomProfileSpec): Profile {
  const channel: ChannelSpec = { name: spec.channel, ordered: spec.ordered, signatureFields: spec.signature.map((s) => s.name) };
  const roles = new Map<string, Role>();
  for (const r of spec.role.request) roles.set(r, 'request');
  for (const r of spec.role.terminal) roles.set(r, 'terminal');
  for (const r of spec.role.interim) roles.set(r, 'interim');
  return {
    name: spec.name,
    channels: [channel],
    needles: spec.needles,
    open(source: Source, ctx: ProfileContext): RecordHandler | null {
      if (source.role !== 'capture') return null;
      return {
        record(value: unknown, loc: Loc): RecordOutcome {
          if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'unclaimed';
          const roleValue = scalar(at(value, spec.role.path));
          if (roleValue === null) return 'unclaimed';
          const role = roles.get(roleValue);
          if (!role) return 'ignored';
          const scope = spec.scope ? (scalar(at(value, spec.scope)) ?? '') : '';
          let id: string | null = null;
          if (spec.id) {
            const c = checkCorrelationId(spec.id.join('.'), at(value, spec.id));
            if (c.kind === 'valid') id = c.id;
            else if (c.kind === 'invalid') ctx.finding(finding('INVALID_ID', { channel: channel.name, scope, locations: [loc] }, c.info));
          }
          const sig = spec.signature.length ? spec.signature.map((s) => scalar(at(value, s.path))) : null;
          const attrs: CallAttrs = { kind: roleValue };
          if (spec.group[0]) attrs.provider = scalar(at(value, spec.group[0]));
          if (spec.group[1]) attrs.model = scalar(at(value, spec.group[1]));
          if (role === 'terminal') {
            attrs.status = spec.status ? scalar(at(value, spec.status)) : null;
            attrs.durationMs = null;
          }
          const timeRaw = spec.time ? at(value, spec.time) : undefined;
          const ev: CallEvent = {
            role,
            channel: channel.name,
            scope,
            id,
            sig,
            time: typeof timeRaw === 'number' ? asNumber(timeRaw) : parseTime(timeRaw),
            caller: (spec.caller ? scalar(at(value, spec.caller)) : null) ?? 'main',
            attrs,
            loc,
          };
          ctx.emit(ev);
          return 'used';
        },
      };
    },
  };
}
