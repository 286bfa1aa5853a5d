import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { html, csp } from '../src/formatters/html.js';
import { fixture, writeCapture } from './helpers.js';
import { HOSTILE, hostileLines } from './hostile.js';
import { FORMAT_NAMES, needsTimeline } from '../src/formatters/index.js';
import chalk from 'chalk';

const ctx = { chalk, cwd: process.cwd() };

describe('html formatter', () => {
  it('is registered and asks for the timeline', () => {
    expect(FORMAT_NAMES).toContain('html');
    expect(needsTimeline(['html'])).toBe(true);
    expect(needsTimeline(['json', 'table'])).toBe(false);
  });

  it('is self-contained: a strict CSP, no script, no external reference', async () => {
    const r = await analyze({ inputs: [fixture('seed-trace.jsonl')], timeline: true });
    const page = html.render(r, ctx);
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="${csp()}">`);
    expect(csp()).toContain("default-src 'none'");
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/<link|@import|url\((?!#)/i);
    // The only URL is the SVG namespace (an identifier, never fetched).
    expect(page.match(/https?:\/\/[^"\s]*/g)?.filter((u) => u !== 'http://www.w3.org/2000/svg') ?? []).toEqual([]);
    expect((page.match(/<g class="call /g) ?? []).length).toBe(3);
    expect((page.match(/<path class="crossed-link"/g) ?? []).length).toBe(2);
  });

  it('is deterministic', async () => {
    const a = html.render(await analyze({ inputs: [fixture('seed-trace.jsonl')], timeline: true }), ctx);
    const b = html.render(await analyze({ inputs: [fixture('seed-trace.jsonl')], timeline: true }), ctx);
    expect(a).toBe(b);
  });

  it('writes capture strings only as escaped text', async () => {
    const r = await analyze({ inputs: [writeCapture(hostileLines())], timeline: true });
    const page = html.render(r, ctx);
    for (const s of Object.values(HOSTILE)) expect(page).not.toContain(s);
    expect(page).not.toMatch(/<(script|img|iframe|b onclick|svg onload)/i);
    // Every tag is ours: its attributes are name="value" pairs, none an event handler.
    for (const tag of page.match(/<[a-zA-Z][^>]*>/g) ?? []) {
      const attrs = [...tag.matchAll(/\s([a-zA-Z][\w:-]*)="[^"]*"/g)].map((m) => m[1]!);
      const rest = tag.replace(/\s([a-zA-Z][\w:-]*)="[^"]*"/g, '').replace(/^<[a-zA-Z][\w-]*/, '');
      expect(rest, tag).toMatch(/^\s*\/?>$/);
      expect(attrs.filter((a) => /^on/i.test(a)), tag).toEqual([]);
    }
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  });

  it('stays under 5 MB with the worst-case strings in every drawn call', async () => {
    const r = await analyze({ inputs: [fixture('seed-trace.jsonl')], timeline: true });
    const base = r.timeline!.scopes[0]!;
    const long = (c: string) => c.repeat(400);
    const loc = { path: long('p'), line: 123456789 };
    const call = {
      ...base.calls[0]!,
      caller: long('c'),
      id: long('i').slice(0, 128),
      provider: long('v'),
      model: long('m'),
      tool: long('t'),
      status: long('s'),
      errorText: long('e').slice(0, 200),
      request: { loc, t: 1 },
      terminal: { loc, t: 2 },
      crossed: false,
      fifoPartner: null,
    };
    const scope = { ...base, scope: long('S'), lanes: [long('c')], calls: Array.from({ length: 250 }, (_, i) => ({ ...call, lane: 0, end: 2 + i })) };
    r.timeline!.scopes = Array.from({ length: 20 }, () => scope);
    const page = html.render(r, ctx);
    expect(page.length).toBeLessThan(5 * 1024 * 1024);
    expect(page).toContain('data-omitted="size"');
  });

  it('says when the axis is input order (no timestamps)', async () => {
    const lines = [
      { event: 'llm:request', session_id: 'S', data: { provider: 'p', model: 'm', caller: 'a' } },
      { event: 'llm:response', session_id: 'S', data: { provider: 'p', model: 'm', caller: 'a' } },
    ];
    const r = await analyze({ inputs: [writeCapture(lines)], timeline: true });
    expect(r.timeline!.scopes[0]!.axis).toBe('input-order');
    const page = html.render(r, ctx);
    expect(page).toContain('No timestamps: the axis is input order');
    expect(page).toContain('>#1<');
  });

  it('says when the report holds no timeline', async () => {
    const r = await analyze({ inputs: [fixture('seed-trace.jsonl')] });
    expect(html.render(r, ctx)).toContain('This report holds no timeline');
  });
});
