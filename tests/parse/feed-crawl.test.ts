/**
 * Acceptance (issue 20, feed): the test web serves an RSS feed; `nutch crawl -i` with the feed plugin
 * parses it into one parse per entry; the index holds each entry (without fetching it) with Nutch's
 * feed fields (author, tag, feed, publishedDate), and `nutch search` finds an entry by a phrase that
 * only its description holds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNutch, spawnNutch } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestWeb, type TestWebFile } from '../web/test-web.js';
import defaults from '../../conf/nutch-default.json' with { type: 'json' };

test('nutch crawl -i over an RSS feed indexes each entry with its feed fields; search finds an entry by its description', async (t) => {
  const files: Record<string, TestWebFile> = {};
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 1, linksPerPage: 0, files });
  t.after(() => web.close());
  const entry = (n: number) => web.url(0, `/news/entry-${n}.html`);
  files['/news/feed.rss'] = {
    contentType: 'application/rss+xml; charset=utf-8',
    body: `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
<title>Quay news</title><link>${web.url(0, '/news/')}</link><description>What happens on the quay</description>
${[1, 2].map((n) => `<item><title>Entry ${n} headline</title><link>${entry(n)}</link>
<description>&lt;p&gt;Story ${n} about the zanzibarian${n} lighthouse&lt;/p&gt;</description><dc:creator>Writer ${n}</dc:creator>
<category>harbour</category><pubDate>Mon, 0${n} Jun 2025 08:30:00 GMT</pubDate></item>`).join('\n')}
</channel></rss>`,
  };
  const cwd = tempDir(t);
  mkdirSync(join(cwd, 'urls'));
  writeFileSync(join(cwd, 'urls', 'seeds.txt'), `${web.url(0, '/news/feed.rss')}\n`);
  writeFileSync(join(cwd, 'nutch-site.json'), JSON.stringify({
    'http.agent.name': 'feed-test', 'fetcher.server.delay': 0, 'parser.worker.threads': 1, 'parser.timeout': 120,
    'plugin.includes': `${(defaults.properties['plugin.includes'] as { default: string }).default}|feed|indexer-jsonl`,
  }));
  writeFileSync(join(cwd, 'index-writers.json'), JSON.stringify({ writers: [
    { id: 'indexer_sqlite_1', extension: 'indexer-sqlite' },
    { id: 'jsonl_1', extension: 'indexer-jsonl', parameters: { path: join(cwd, 'docs.jsonl'), mode: 'append' } },
  ] }));
  const crawl = await spawnNutch(['crawl', '-i', '-s', 'urls', 'crawl', '1'], { cwd });
  assert.equal(crawl.code, 0, crawl.stderr);
  // Only the feed was fetched: the entries come from its parse.
  assert.deepEqual(web.requestLog.get(web.hosts[0]!)?.map((r) => r.path).filter((p) => p !== '/robots.txt'), ['/news/feed.rss']);

  // Each entry is signed by its own text, so dedup keeps them all.
  assert.doesNotMatch(crawl.stdout, /documents_marked_as_duplicate=[1-9]/);
  assert.match(crawl.stdout, /indexed \(add\/update\)=3\b/);
  const docs = readFileSync(join(cwd, 'docs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((d) => d.action === 'add');
  for (const n of [1, 2]) {
    const doc = docs.find((d) => d.id === entry(n));
    assert.ok(doc, `entry ${n} indexed: ${docs.map((d) => d.id).join(', ')}`);
    assert.deepEqual(doc.fields.title, [`Entry ${n} headline`]);
    assert.deepEqual(doc.fields.author, [`Writer ${n}`]);
    assert.deepEqual(doc.fields.tag, ['harbour']);
    assert.deepEqual(doc.fields.feed, [web.url(0, '/news/')]);
    assert.equal(new Date(doc.fields.publishedDate[0]).toISOString(), `2025-06-0${n}T08:30:00.000Z`);
  }
  const s = await runNutch(['search', 'crawl', '"zanzibarian2 lighthouse"', '-json'], { cwd });
  assert.equal(s.code, 0, s.stderr);
  const hits = s.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  assert.deepEqual(hits.map((h) => h.url), [entry(2)]);
});
