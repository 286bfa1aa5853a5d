/**
 * Chromium from the Debian packages, driven by playwright-core (which downloads no browser).
 * CI installs it (.ci/run); a missing browser fails the browser tests loudly.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CALLPAIR_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserSession {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A fresh Chromium with its own, new user-data-dir (removed on close). */
export async function launchChromium(): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium) or set CALLPAIR_CHROMIUM`);
  }
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'callpair-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    offline: true,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export interface PageWatch {
  page: Page;
  console: string[];
  errors: string[];
  dialogs: string[];
  requests: string[];
}

/** A page that records console messages, page errors, dialogs and every request it tries. */
export async function watchedPage(context: BrowserContext): Promise<PageWatch> {
  const page = await context.newPage();
  const w: PageWatch = { page, console: [], errors: [], dialogs: [], requests: [] };
  page.on('console', (m) => w.console.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => w.errors.push(String(e)));
  page.on('dialog', (d) => {
    w.dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  page.on('request', (r) => w.requests.push(r.url()));
  return w;
}
