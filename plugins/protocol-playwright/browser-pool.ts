/**
 * One headless Chromium per protocol instance, launched on first use and reused, with a page pool:
 * at most `pagesMax` pages open at once (others wait in FIFO order), one browser context (the crawler's
 * user agent and headers) shared by its pages. After `maxPagesPerBrowser` pages the browser is retired:
 * new pages go to a fresh one and the old one closes when its last page does, so memory stays bounded on
 * a long crawl. A browser that crashed is replaced at the next page. playwright-core is imported by a
 * computed name so the build never bundles it; without it, or without the binary, the error says how
 * to get them.
 */
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { NutchError } from '../../sdk/plugin.js';

export interface BrowserPoolOptions {
  executablePath: string;
  args: string[];
  pagesMax: number;
  maxPagesPerBrowser: number;
  userAgent: string;
  extraHeaders: Record<string, string>;
}

interface Generation {
  browser: Browser;
  context: BrowserContext;
  pages: number;
  open: number;
  retired: boolean;
}

const PLAYWRIGHT = 'playwright-core';

export class BrowserPool {
  private current: Promise<Generation> | null = null;
  private inUse = 0;
  private readonly waiting: (() => void)[] = [];
  private closed = false;
  /** Browsers launched so far (tests and logs: reuse is visible). */
  launches = 0;

  constructor(private readonly opts: BrowserPoolOptions) {}

  private async launch(): Promise<Generation> {
    if (!existsSync(this.opts.executablePath)) {
      throw new NutchError('NUTCH_BROWSER_UNAVAILABLE', `protocol-playwright: no browser at ${this.opts.executablePath} (playwright.executable.path). Install Chromium (Debian/Ubuntu: apt-get install chromium) or point playwright.executable.path at a Chrome or Chromium binary; nutch-ts never downloads one.`, { property: 'playwright.executable.path' });
    }
    let chromium: typeof import('playwright-core').chromium;
    try {
      ({ chromium } = (await import(PLAYWRIGHT)) as typeof import('playwright-core'));
    } catch (err) {
      throw new NutchError('NUTCH_BROWSER_UNAVAILABLE', `protocol-playwright needs the npm package playwright-core beside nutch-ts (npm install playwright-core@1.65.1): ${(err as Error).message}`, {}, { cause: err });
    }
    let browser: Browser;
    try {
      browser = await chromium.launch({ executablePath: this.opts.executablePath, args: this.opts.args, headless: true });
    } catch (err) {
      throw new NutchError('NUTCH_BROWSER_UNAVAILABLE', `protocol-playwright could not start ${this.opts.executablePath}: ${(err as Error).message.split('\n')[0]}`, { property: 'playwright.executable.path' }, { cause: err });
    }
    this.launches++;
    const context = await browser.newContext({ userAgent: this.opts.userAgent, extraHTTPHeaders: this.opts.extraHeaders, javaScriptEnabled: true, serviceWorkers: 'block' });
    return { browser, context, pages: 0, open: 0, retired: false };
  }

  private async generation(): Promise<Generation> {
    for (;;) {
      if (!this.current) {
        const launching = this.launch();
        this.current = launching;
        launching.catch(() => {
          if (this.current === launching) this.current = null;
        });
      }
      const pending = this.current;
      const g = await pending;
      if (!g.retired && g.browser.isConnected()) return g;
      // crashed or retired meanwhile: replace it (once, whoever gets here first)
      if (this.current === pending) this.retire(g);
    }
  }

  /** New pages go to a fresh browser; this one closes when its last page does. */
  private retire(g: Generation): void {
    g.retired = true;
    this.current = null;
    if (g.open === 0) void g.browser.close().catch(() => undefined);
  }

  /** A fresh page from the pool; `release` closes it and lets the next waiter in. */
  async acquire(signal?: AbortSignal): Promise<{ page: Page; release: () => Promise<void> }> {
    if (this.closed) throw new NutchError('NUTCH_BROWSER_UNAVAILABLE', 'protocol-playwright: the browser pool is closed.');
    if (this.inUse >= this.opts.pagesMax) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const i = this.waiting.indexOf(wake);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(signal!.reason ?? new Error('aborted'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(wake);
      });
    }
    this.inUse++;
    let g: Generation;
    let page: Page;
    try {
      g = await this.generation();
      g.pages++;
      g.open++;
      if (g.pages >= this.opts.maxPagesPerBrowser) this.retire(g);
      try {
        page = await g.context.newPage();
      } catch (err) {
        g.open--;
        throw err;
      }
    } catch (err) {
      this.next();
      throw err;
    }
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await page.close().catch(() => undefined);
      g.open--;
      if (g.retired && g.open === 0) await g.browser.close().catch(() => undefined);
      this.next();
    };
    return { page, release };
  }

  private next(): void {
    this.inUse--;
    this.waiting.shift()?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    const g = await this.current?.catch(() => null);
    this.current = null;
    if (g) await g.browser.close().catch(() => undefined);
  }
}
