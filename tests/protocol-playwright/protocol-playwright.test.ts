/**
 * protocol-playwright against a local JavaScript site on 127.0.0.1, driving the real Chromium at
 * /usr/bin/chromium (Debian's package; .ci/run installs it when missing): links that exist only after
 * scripts run, Nutch's status mapping without rendering non-HTML answers, blocked resource types, the
 * page timeout keeping the DOM rendered so far, the page pool and browser reuse/retirement, robots.txt,
 * and whole `nutch crawl` runs where the same page yields its links through protocol-playwright and none
 * through protocol-http.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runNutch, spawnNutch } from '../helpers/cli.js';
import { createCrawlDatum, CrawlStatus, ContentMeta, protocolStatusName } from '../../core/model/index.js';
import type { PlaywrightProtocol } from '../../plugins/protocol-playwright/playwright-protocol.js';

interface Site {
  base: string;
  hits: Map<string, number>;
  maxHolding: number;
  close(): Promise<void>;
}

const page = (title: string, body: string, head = '') => `<!doctype html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`;

/** The JS test site: every page's links are written by script unless said otherwise. */
async function startJsSite(): Promise<Site> {
  const hits = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  let holding = 0;
  const site = { maxHolding: 0 } as Site;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const html = (body: string, type = 'text/html; charset=utf-8') => res.writeHead(200, { 'content-type': type }).end(body);
    switch (path) {
      case '/robots.txt':
        return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
      case '/js.html':
        return html(page('Before script', '<p id="static">static text</p><div id="links"></div>', `<script>
          document.addEventListener('DOMContentLoaded', () => {
            document.title = 'Rendered by script';
            for (const [href, text] of [['/page-a.html', 'Page A'], ['/page-b.html', 'Page B'], ['/private/secret.html', 'Secret']]) {
              const a = document.createElement('a'); a.href = href; a.textContent = text;
              document.getElementById('links').append(a);
            }
          });</script>`));
      case '/page-a.html':
      case '/page-b.html':
        return html(page(`Static ${path}`, '<p>no links here</p>'));
      case '/latin1.html':
        return html(Buffer.from(page('Caf\u00e9', '<p id="w"></p><script>document.getElementById("w").textContent = "cr\u00e8me " + document.title</script>'), 'latin1') as unknown as string, 'text/html; charset=iso-8859-1');
      case '/images.html':
        return html(page('Images', '<img src="/img.png"><script src="/app.js"></script>'));
      case '/app.js':
        return res.writeHead(200, { 'content-type': 'application/javascript' }).end('document.body.append(Object.assign(document.createElement("a"), { href: "/from-app-js.html", textContent: "app" }));');
      case '/img.png':
        return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(10));
      case '/hang.html':
        // the inline script runs, then the page waits forever for /hang.js: the load event never fires
        return html(page('Hanging', '<a href="/page-a.html">static</a><script>document.body.append(Object.assign(document.createElement("a"), { href: "/before-hang.html", textContent: "x" }))</script><script src="/hang.js"></script>'));
      case '/hang.js':
        hanging.add(res);
        return;
      case '/hold.html':
        return html(page('Hold', '<script src="/hold.js"></script>'));
      case '/hold.js':
        holding++;
        site.maxHolding = Math.max(site.maxHolding, holding);
        setTimeout(() => {
          holding--;
          res.writeHead(200, { 'content-type': 'application/javascript' }).end('document.title = "held"');
        }, 150);
        return;
      case '/doc.txt':
        return res.writeHead(200, { 'content-type': 'text/plain' }).end('<a href="/not-a-link.html">plain text</a>');
      case '/moved':
        return res.writeHead(301, { location: '/page-a.html' }).end();
      case '/gone':
        return res.writeHead(410).end();
      case '/broken':
        return res.writeHead(500).end('boom');
      default:
        return res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><a href="/x">404 page</a></body></html>');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return Object.assign(site, {
    base,
    hits,
    close: () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  });
}

const AGENT: Record<string, string> = { 'http.agent.name': 'RenderBot', 'plugin.includes': 'protocol-playwright' };

let site: Site;
// One protocol (one browser) for the tests with the default configuration: launching Chromium is the
// slow part, and reuse across pages is part of what is tested.
let shared: PlaywrightProtocol;
const cleanups: (() => unknown)[] = [];
before(async () => {
  site = await startJsSite();
  const ctx = fixtureContext({ after: (fn) => cleanups.push(fn) }, { includeBuiltins: true, defines: AGENT });
  shared = (await ctx.extensions.protocolFactory().getProtocol(`${site.base}/`)) as unknown as PlaywrightProtocol;
});
after(async () => {
  await shared.close();
  for (const fn of cleanups.reverse()) await fn();
  await site.close();
});

const datum = () => createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED });
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

async function playwright(t: Parameters<typeof fixtureContext>[0], defines: Record<string, string> = {}): Promise<PlaywrightProtocol> {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { ...AGENT, ...defines } });
  const p = (await ctx.extensions.protocolFactory().getProtocol(`${site.base}/`)) as unknown as PlaywrightProtocol;
  t.after(() => p.close());
  return p;
}

test('protocol-playwright: the rendered DOM holds the links and title scripts wrote; one browser serves every page', async (t) => {
  const p = shared;
  const out = await p.getProtocolOutput(`${site.base}/js.html`, datum());
  assert.equal(protocolStatusName(out.status.code), 'SUCCESS', out.status.args.join(' '));
  const html = text(out.content!.content);
  assert.match(html, /<title>Rendered by script<\/title>/);
  assert.match(html, /<a href="\/page-a\.html">Page A<\/a><a href="\/page-b\.html">Page B<\/a>/);
  assert.equal(out.content!.contentType, 'text/html; charset=utf-8');
  assert.deepEqual(out.content!.metadata['X-Nutch-Rendered-By'], ['protocol-playwright']);
  assert.deepEqual(out.content!.metadata[ContentMeta.RESPONSE_CODE], ['200']);

  // served as ISO-8859-1, handed on as UTF-8 and labelled so
  const latin = await p.getProtocolOutput(`${site.base}/latin1.html`, datum());
  assert.match(text(latin.content!.content), /<p id="w">cr\u00e8me Caf\u00e9<\/p>/);
  assert.deepEqual(latin.content!.metadata['Content-Type'], ['text/html; charset=utf-8']);
  assert.equal(p.browserLaunches, 1, 'the browser is reused');
});

test('protocol-playwright: Nutch\'s status mapping; redirects are not followed and non-HTML is kept as served', async (t) => {
  const p = shared;
  const before = site.hits.get('/page-a.html') ?? 0;
  for (const [path, status, check] of [
    ['/moved', 'MOVED', (o) => assert.equal(o.status.args[0], `${site.base}/page-a.html`)],
    ['/gone', 'GONE', () => undefined],
    ['/missing.html', 'NOTFOUND', (o) => assert.equal(o.content!.metadata['X-Nutch-Rendered-By'], undefined, 'an error page is not rendered')],
    ['/broken', 'EXCEPTION', () => undefined],
    ['/doc.txt', 'SUCCESS', (o) => {
      assert.equal(text(o.content!.content), '<a href="/not-a-link.html">plain text</a>');
      assert.equal(o.content!.contentType, 'text/plain');
    }],
  ] as [string, string, (o: Awaited<ReturnType<PlaywrightProtocol['getProtocolOutput']>>) => void][]) {
    const out = await p.getProtocolOutput(`${site.base}${path}`, datum());
    assert.equal(protocolStatusName(out.status.code), status, path);
    check(out);
  }
  assert.equal(site.hits.get('/page-a.html') ?? 0, before, 'the redirect target was not fetched');
});

test('protocol-playwright: blocked resource types are never requested; scripts are', async (t) => {
  const p = shared;
  const out = await p.getProtocolOutput(`${site.base}/images.html`, datum());
  assert.match(text(out.content!.content), /href="\/from-app-js\.html"/);
  assert.equal(site.hits.get('/img.png'), undefined);
  assert.equal(site.hits.get('/app.js'), 1);
});

test('protocol-playwright: at playwright.page.timeout the DOM rendered so far is kept (TIME); at most playwright.pages.max pages at once; a browser retires after playwright.browser.max.pages', async (t) => {
  const p = await playwright(t, { 'playwright.page.timeout': '2000', 'playwright.pages.max': '2', 'playwright.browser.max.pages': '3' });
  const out = await p.getProtocolOutput(`${site.base}/hang.html`, datum());
  assert.equal(protocolStatusName(out.status.code), 'SUCCESS', out.status.args.join(' '));
  assert.deepEqual(out.content!.metadata[ContentMeta.TRUNCATED], ['TIME']);
  assert.match(text(out.content!.content), /href="\/before-hang\.html"/);

  site.maxHolding = 0;
  const outs = await Promise.all(Array.from({ length: 5 }, () => p.getProtocolOutput(`${site.base}/hold.html`, datum())));
  assert.deepEqual(outs.map((o) => /<title>held<\/title>/.test(text(o.content!.content))), [true, true, true, true, true]);
  assert.ok(site.maxHolding <= 2, `pages at once: ${site.maxHolding}`);
  assert.equal(p.browserLaunches, 2, 'pages 1-3 on the first browser, 4-6 on the second');
});

test('protocol-playwright: robots.txt read over HTTP by the shared parser', async (t) => {
  const p = shared;
  const rules = await p.getRobotRules(`${site.base}/js.html`, null);
  assert.equal(rules.isAllowed(`${site.base}/private/secret.html`), false);
  assert.equal(rules.isAllowed(`${site.base}/page-a.html`), true);
});

test('protocol-playwright: no browser at playwright.executable.path is NUTCH_BROWSER_UNAVAILABLE naming the property', async (t) => {
  const p = await playwright(t, { 'playwright.executable.path': '/nonexistent/chromium' });
  await assert.rejects(p.getProtocolOutput(`${site.base}/js.html`, datum()), (e: { code: string; message: string }) => e.code === 'NUTCH_BROWSER_UNAVAILABLE' && /no browser at \/nonexistent\/chromium \(playwright\.executable\.path\)/.test(e.message) && /apt-get install chromium/.test(e.message));
});

async function crawlOnce(t: Parameters<typeof tempDir>[0], protocolConf: Record<string, unknown>) {
  const cwd = tempDir(t);
  mkdirSync(join(cwd, 'urls'));
  writeFileSync(join(cwd, 'urls', 'seed.txt'), `${site.base}/js.html\n`);
  writeFileSync(join(cwd, 'nutch-site.json'), JSON.stringify({ 'http.agent.name': 'RenderBot', 'fetcher.server.delay': 0, 'urlfilter.regex.file': 'accept-all.txt', ...protocolConf }));
  writeFileSync(join(cwd, 'accept-all.txt'), '+.\n');
  const r = await spawnNutch(['crawl', '-s', 'urls', 'crawl', '1'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  assert.equal(r.code, 0, r.stderr);
  const urls: Record<string, string> = {};
  for (const path of ['/js.html', '/page-a.html', '/page-b.html', '/private/secret.html']) {
    const q = await runNutch(['readdb', 'crawl/crawldb', '-url', `${site.base}${path}`], { cwd });
    urls[path] = /not found/i.test(q.stdout + q.stderr) ? 'absent' : (/Status: \d+ \((\w+)\)/.exec(q.stdout)?.[1] ?? q.stdout.trim());
  }
  return urls;
}

test('nutch crawl: the JS page\'s links reach the CrawlDb through protocol-playwright (host-protocol-mapping), and not through protocol-http', async (t) => {
  const rendered = await crawlOnce(t, { 'plugin.includes.add': ['protocol-playwright'], 'host-protocol-mapping': ['127.0.0.1:protocol-playwright'] });
  assert.deepEqual(rendered, { '/js.html': 'db_fetched', '/page-a.html': 'db_unfetched', '/page-b.html': 'db_unfetched', '/private/secret.html': 'db_unfetched' });
  const plain = await crawlOnce(t, {});
  assert.deepEqual(plain, { '/js.html': 'db_fetched', '/page-a.html': 'absent', '/page-b.html': 'absent', '/private/secret.html': 'absent' });
});
