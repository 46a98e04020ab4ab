/**
 * Search that finds the page (issue 16), through the real path: `nutch crawl -i` of a small site on
 * the local test web, then `nutch search`. Each page pair puts the query's words in the right page's
 * title, URL path, headings or inlink anchors, and more often in the wrong page's body, so plain BM25
 * over the body would rank the wrong one first. Internal-link anchors count only with
 * linkdb.ignore.internal.links=false; with Nutch's default the crawl warns that the LinkDb stayed empty.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startTestWeb } from '../web/test-web.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import { runNutch } from '../helpers/cli.js';

const html = (title: string, body: string) => ({ contentType: 'text/html; charset=utf-8', body: `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>` });

const files = {
  '/hub.html': html('Manual', ['sql-createindex.html">CREATE INDEX', 'progress.html">Progress Reporting', 'tuning.html">Server settings', 'misc.html">Miscellany', 'snap.html">nightly snapshot', 'wal.html">Reliability', 'scatter.html">Odds and ends']
    .map((l) => `<p><a href="/${l}</a></p>`).join('')),
  '/sql-createindex.html': html('CREATE INDEX', '<p>Defines a new index. With CONCURRENTLY the table is not locked.</p>'),
  '/progress.html': html('Progress Reporting', '<p>Each create index run reports progress. A create index concurrently run has phases; create index waits, create index concurrently scans twice; index, index, create.</p>'),
  '/tuning.html': html('Server settings', '<h2>Connection pooling</h2><p>Put a pooler in front of the server.</p>'),
  '/misc.html': html('Miscellany', '<p>Each connection costs memory. Thread pooling is not the same. A connection limit; more pooling; every connection counts.</p>'),
  '/snap.html': html('Backups', '<p>Copy the data directory every night with rsync.</p>'),
  '/wal.html': html('Reliability', '<p>The write ahead log keeps every change before the data files.</p>'),
  '/scatter.html': html('Odds and ends', '<p>Write it down. Read the log file. Go ahead later. Write more pages, log more lines, go ahead again and write the log once more.</p>'),
};

async function crawlSite(t: Parameters<typeof tempDir>[0], defines: string[] = []) {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 1, linksPerPage: 0, files, robots: false });
  t!.after(() => web.close());
  const dir = tempDir(t);
  writeFile(join(dir, 'nutch-site.json'), { 'http.agent.name': 'nutch-ts-test', 'fetcher.server.delay': 0, 'fetcher.server.min.delay': 0, 'parser.worker.threads': 1 });
  writeFile(join(dir, 'seeds', 'seed.txt'), web.url(0, '/hub.html') + '\n');
  const r = await runNutch(['crawl', '-i', ...defines.flatMap((d) => ['-D', d]), '-s', 'seeds', 'crawl', '-1'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const search = async (q: string) => {
    const s = await runNutch(['search', 'crawl', q, '-json'], { cwd: dir });
    assert.equal(s.code, 0, s.stderr);
    return s.stdout.trim().split('\n').filter(Boolean).map((l) => new URL(JSON.parse(l).url as string).pathname);
  };
  return { web, dir, crawl: r, search };
}

test('title, URL path, headings and proximity put the page first; internal anchors are off by default, with a warning', async (t) => {
  const { crawl, search } = await crawlSite(t);
  assert.equal((await search('create index concurrently'))[0], '/sql-createindex.html');
  assert.equal((await search('connection pooling'))[0], '/tuning.html');
  assert.equal((await search('write ahead log'))[0], '/wal.html');
  // a URL path word written as two query words
  assert.equal((await search('createindex'))[0], '/sql-createindex.html');
  const snapshot = await search('nightly snapshot');
  assert.ok(!snapshot.includes('/snap.html'), `no anchors, so the page is not found by them: ${snapshot}`);
  assert.match(crawl.stderr + crawl.stdout, /linkdb\.ignore\.internal\.links=true.*the LinkDb is empty/s);
});

test('with linkdb.ignore.internal.links=false the anchors of links within the site find the page, and no warning', async (t) => {
  const { crawl, search } = await crawlSite(t, ['linkdb.ignore.internal.links=false']);
  assert.equal((await search('nightly snapshot'))[0], '/snap.html');
  assert.doesNotMatch(crawl.stderr + crawl.stdout, /the LinkDb is empty/);
});
