/**
 * The html report in a real browser: Chromium from the Debian packages (/usr/bin/chromium), driven
 * by playwright-core (no browser download). A missing browser fails these tests, never skips them.
 * CALLPAIR_UPDATE_SCREENSHOT=1 also writes docs/html-report.png (the picture in docs/report.md);
 * CALLPAIR_BIG_HTML=1 runs the 200 MB capture test (CALLPAIR_BIG_HTML_MB to change the size).
 */
import { mkdirSync, statSync, writeFileSync, copyFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tmpDir, writeCapture } from './helpers.js';
import { launchChromium, watchedPage, type BrowserSession } from './browser.js';
import { HOSTILE, hostileLines } from './hostile.js';
import { writeBigCapture } from './gen/big-capture.js';

let session: BrowserSession;

beforeAll(async () => {
  session = await launchChromium();
}, 60_000);

afterAll(async () => {
  await session?.close();
});

async function htmlReport(args: string[], dir = tmpDir()): Promise<string> {
  const out = path.join(dir, 'report.html');
  const res = await runCli(['analyze', '--format', 'html', '--output', out, ...args]);
  expect(res.stderr).toBe('');
  expect([0, 1]).toContain(res.code);
  return out;
}

/** Reads a dotted path (`channels.0.requests`) from the JSON report. */
function at(obj: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((o, k) => (o === null || o === undefined ? undefined : (o as Record<string, unknown>)[k]), obj);
}

describe('html report in Chromium', () => {
  it('seed trace: no console errors, three bars in three lanes, two crossed links, summary = JSON', async () => {
    const file = await htmlReport(['fixtures/seed-trace.jsonl']);
    const w = await watchedPage(session.context);
    await w.page.goto(pathToFileURL(file).href, { waitUntil: 'load' });

    const lanes = await w.page.locator('svg.timeline g.lane').count();
    const bars = await w.page.locator('svg.timeline g.call rect.bar').count();
    const barLanes = await w.page.locator('svg.timeline g.call').evaluateAll((els) => els.map((e) => e.getAttribute('data-lane')));
    const links = await w.page.locator('svg.timeline path.crossed-link').count();
    expect(lanes).toBe(3);
    expect(bars).toBe(3);
    expect(new Set(barLanes)).toEqual(new Set(['0', '1', '2']));
    expect(links).toBe(2);
    // The stylesheet applied (the CSP admits it by hash): exact pairs are green.
    const fill = await w.page.locator('svg.timeline g.call rect.bar').first().evaluate((e) => getComputedStyle(e).fill);
    expect(fill).toBe('rgb(46, 125, 50)');
    // Every bar is drawn with a size, inside the viewport.
    const boxes = await w.page.locator('svg.timeline g.call rect.bar').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
    for (const b of boxes) expect(b).toBeGreaterThan(10);

    // Hovering a bar: its tooltip names path:line, caller, id and latency.
    await w.page.locator('svg.timeline g.call[data-lane="0"]').hover();
    const tip = await w.page.locator('svg.timeline g.call[data-lane="0"] > title').textContent();
    expect(tip).toContain('caller agent');
    expect(tip).toContain('request  fixtures/seed-trace.jsonl:2');
    expect(tip).toContain('terminal fixtures/seed-trace.jsonl:7');
    expect(tip).toContain('id 620c068b-044d-4b18-a100-332479278b82');
    expect(tip).toContain('latency 30 ms');
    const timeoutTip = await w.page.locator('svg.timeline g.call.timeout > title').textContent();
    expect(timeoutTip).toContain('caller naming');

    // The summary's numbers are the JSON report's.
    const json = JSON.parse((await runCli(['analyze', '--format', 'json', 'fixtures/seed-trace.jsonl'])).stdout);
    const cells = await w.page.locator('[data-k]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-k'), e.textContent, e.getAttribute('data-passed')]));
    expect(cells.length).toBeGreaterThan(15);
    const derived: Record<string, number> = {
      calls: json.channels.reduce((n: number, c: any) => n + c.pairs.total, 0),
      crossed: json.channels.reduce((n: number, c: any) => n + c.crossed.fifo, 0),
      orphans: json.channels.reduce((n: number, c: any) => n + c.orphanRequests + c.orphanResponses, 0),
      ambiguous: json.channels.reduce((n: number, c: any) => n + c.pairs.byConfidence.ambiguous, 0),
    };
    for (const [k, v, passed] of cells) {
      if (k === 'gate.passed') {
        expect(passed).toBe(String(json.gate.passed));
        continue;
      }
      const want = k! in derived ? derived[k!] : /^\d+\./.test(k!) ? at(json.channels, k!) : at(json, k!);
      expect(Number(v), k!).toBe(want);
    }
    expect(cells.find((c) => c[0] === '0.crossed.fifo')?.[1]).toBe('2');
    expect(cells.find((c) => c[0] === '0.requests')?.[1]).toBe('3');

    expect(w.errors).toEqual([]);
    expect(w.console.filter((m) => m.startsWith('error') || m.startsWith('warning'))).toEqual([]);
    expect(w.requests.filter((u) => !u.startsWith('file:'))).toEqual([]);

    const outDir = path.join(ROOT, 'test', 'output');
    mkdirSync(outDir, { recursive: true });
    const png = path.join(outDir, 'html-report.png');
    await w.page.setViewportSize({ width: 1240, height: 900 });
    await w.page.mouse.move(1, 1);
    await w.page.screenshot({ path: png, fullPage: true });
    expect(statSync(png).size).toBeGreaterThan(10_000);
    if (process.env.CALLPAIR_UPDATE_SCREENSHOT === '1') copyFileSync(png, path.join(ROOT, 'docs', 'html-report.png'));
    await w.page.close();
  });

  it('hostile capture: no script runs, no dialog, no console output, the text shows literally', async () => {
    const dir = tmpDir();
    const capture = writeCapture(hostileLines(), '<img src=x onerror=alert(8)>.jsonl', dir);
    const file = await htmlReport([capture], dir);
    const w = await watchedPage(session.context);
    await w.page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    // Give timers and handlers a chance, and hover everything that could carry a handler.
    for (const sel of ['svg.timeline g.call', 'svg.timeline text.lane-label', 'table.findings td', 'table.inputs td']) {
      const n = Math.min(await w.page.locator(sel).count(), 6);
      for (let i = 0; i < n; i++) await w.page.locator(sel).nth(i).hover({ force: true });
    }
    await w.page.locator('body').click({ position: { x: 5, y: 5 } });
    await w.page.waitForTimeout(300);
    expect(w.dialogs).toEqual([]);
    expect(w.console).toEqual([]);
    expect(w.errors).toEqual([]);
    expect(w.requests.filter((u) => !u.startsWith('file:'))).toEqual([]);

    const dom = await w.page.evaluate(() => ({
      scripts: document.querySelectorAll('script').length,
      imgs: document.querySelectorAll('img').length,
      iframes: document.querySelectorAll('iframe').length,
      handlers: [...document.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name)),
      text: document.body.innerText,
      titles: [...document.querySelectorAll('title')].map((t) => t.textContent).join('\n'),
    }));
    expect(dom.scripts).toBe(0);
    expect(dom.imgs).toBe(0);
    expect(dom.iframes).toBe(0);
    expect(dom.handlers).toEqual([]);
    expect(dom.text).toContain(HOSTILE.caller);
    expect(dom.text).toContain(HOSTILE.session);
    expect(dom.text).toContain('<img src=x onerror=alert(8)>.jsonl');
    expect(dom.titles).toContain(HOSTILE.model);
    expect(dom.titles).toContain(HOSTILE.provider);
    expect(dom.titles).toContain(HOSTILE.error);
    await w.page.close();
  });

  const bigMb = Number(process.env.CALLPAIR_BIG_HTML_MB ?? 200);
  it.runIf(process.env.CALLPAIR_BIG_HTML === '1')(
    `a ${bigMb} MB capture: html under 5 MB, loads in under 5 s`,
    async () => {
      const dir = tmpDir();
      try {
        const capture = path.join(dir, 'big.jsonl');
        let t = Date.now();
        const gen = writeBigCapture(capture, bigMb * 1024 * 1024);
        const genMs = Date.now() - t;
        t = Date.now();
        const file = await htmlReport([capture], dir);
        const analyzeMs = Date.now() - t;
        const size = statSync(file).size;
        const w = await watchedPage(session.context);
        t = Date.now();
        await w.page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
        await w.page.locator('svg.timeline').first().waitFor();
        const loadMs = Date.now() - t;
        const calls = await w.page.locator('svg.timeline g.call').count();
        const scopes = await w.page.locator('figure.scope').count();
        const line = { captureBytes: gen.bytes, lines: gen.lines, sessions: gen.sessions, calls: gen.calls, genMs, analyzeMs, htmlBytes: size, loadMs, scopesDrawn: scopes, barsDrawn: calls };
        mkdirSync(path.join(ROOT, 'test', 'output'), { recursive: true });
        writeFileSync(path.join(ROOT, 'test', 'output', 'html-big.json'), `${JSON.stringify(line, null, 2)}\n`);
        console.log(JSON.stringify(line));
        expect(size).toBeLessThan(5 * 1024 * 1024);
        expect(loadMs).toBeLessThan(5000);
        expect(scopes).toBe(20);
        expect(w.errors).toEqual([]);
        await w.page.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    900_000,
  );
});
