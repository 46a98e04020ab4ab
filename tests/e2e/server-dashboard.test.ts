/**
 * Issue 17's dashboard acceptance: `nutch server` (a real child process) driven by a real headless
 * Chromium (Debian's /usr/bin/chromium through playwright-core; nothing is downloaded). The page starts
 * a crawl of the test web, the progress chart shows pages, a search shows the hits the API returns.
 * A screenshot is kept in a temp dir of its own (its path is printed as a diagnostic).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { chromium } from 'playwright-core';
import { startTestWeb } from '../web/test-web.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startNutch } from '../helpers/cli.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

test('the dashboard starts a crawl, charts its pages and searches what it indexed', { timeout: 240_000 }, async (t) => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium; .ci/run does) or set CHROMIUM_PATH`);
  const web = await startTestWeb({ hosts: 3, pagesPerHost: 8, linksPerPage: 3, seed: 17, robots: true });
  t.after(() => web.close());
  const cwd = tempDir(t);
  writeFileSync(join(cwd, 'nutch-site.json'), JSON.stringify({ 'http.agent.name': 'dashboard-test', 'fetcher.server.delay': 0.01, 'db.ignore.external.links': false }));

  const { child, result } = startNutch(['server', '-port', '0', '-crawlDir', 'crawl'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  t.after(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  let out = '';
  child.stdout.on('data', (c: string) => (out += c));
  const base = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) resolve(m[1]!);
    };
    child.stdout.on('data', check);
    void result.then((r) => reject(new Error(`nutch server exited ${r.code}: ${r.stderr}`)));
  });

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  t.after(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(base + '/');
  await page.waitForSelector('#start');

  // start a crawl of the test web from the page
  await page.fill('#seeds', web.seeds.join('\n'));
  await page.fill('#rounds', '2');
  await page.click('#start');
  await page.waitForFunction("document.querySelector('#crawl-state')?.textContent === 'running'", undefined, { timeout: 30_000 });

  // the progress chart shows pages: its series holds fetched pages and uPlot drew it
  await page.waitForFunction("Number(document.querySelector('#rate-chart')?.getAttribute('data-summary')) > 0", undefined, { timeout: 120_000, polling: 200 });
  assert.ok(await page.locator('#rate-chart canvas').count() > 0, 'uPlot drew the pages/s chart');
  assert.ok(Number(await page.getAttribute('#rate-chart', 'data-points')) >= 2, 'the chart has samples');

  await page.waitForFunction("document.querySelector('#crawl-state')?.textContent === 'finished'", undefined, { timeout: 180_000, polling: 250 });
  const status = await (await fetch(`${base}/api/status`)).json() as { crawl: { pages: number; statusMix: { success: number }; summary: Record<string, number> } };
  assert.equal(status.crawl.summary.rounds, 2);
  assert.ok(status.crawl.statusMix.success > web.seeds.length, 'two rounds fetched more than the seeds');
  const mix = await page.getAttribute('#mix-chart', 'data-summary');
  assert.match(mix ?? '', new RegExp(`ok=${status.crawl.statusMix.success}\\b`), 'the status mix chart shows the fetched pages');
  assert.equal(Number(await page.getAttribute('#rate-chart', 'data-summary')), status.crawl.pages);

  // CrawlDb stats, hosts and segments are read from the crawl directory
  await page.waitForFunction("(document.querySelector('#segments')?.querySelectorAll('tr').length ?? 0) >= 3", undefined, { timeout: 30_000 });
  const stats = await (await fetch(`${base}/api/crawldb/stats`)).json() as { totalUrls: number };
  assert.match(await page.locator('#crawldb-stats tr').first().innerText(), new RegExp(`TOTAL urls\\s+${stats.totalUrls}`));
  assert.ok((await page.locator('#hosts tr').count()) > web.seeds.length, 'one row per host (and the header)');

  // search from the page: the hits shown are the index's, home page first
  await page.fill('#q', '"Host 1 page 0"');
  await page.click('#search');
  await page.waitForSelector('#results li.hit');
  const shown = await page.locator('#results li.hit .url').allInnerTexts();
  const api = await (await fetch(`${base}/api/search?q=${encodeURIComponent('"Host 1 page 0"')}`)).json() as { url: string }[];
  assert.deepEqual(shown, api.map((h) => h.url));
  assert.equal(shown[0], web.seeds[1]);
  assert.equal(await page.locator('#results li.hit .snippet b').count() > 0, true, 'highlights are bold, not raw tags');
  assert.doesNotMatch(await page.locator('#results').innerText(), /<b>/);

  // kept after the test (the crawl's temp dir is removed) so a person can look at it
  const shot = join(tempDir(undefined, 'nutch-ts-dashboard-'), 'dashboard.png');
  await page.screenshot({ path: shot, fullPage: true });
  t.diagnostic(`screenshot: ${shot}`);
  assert.deepEqual(pageErrors, []);

  // SIGINT ends the server (no crawl running: nothing to stop)
  child.kill('SIGINT');
  const [code] = await once(child, 'exit') as [number];
  assert.equal(code, 130);
});
