import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestWeb } from '../web/test-web.js';
import { fetch } from '../../core/crawl/fetch/index.js';
import { statusName } from '../../core/model/crawl-datum.js';
import { fetchContext, generateSegment, readPart } from './fetch-helpers.js';

test('fetch: every page of the test web, statuses and content stored, _SUCCESS at the end', async (t) => {
  const web = await startTestWeb({ hosts: 4, pagesPerHost: 6, linksPerPage: 3, robots: true });
  t.after(() => web.close());
  const ctx = fetchContext(t);
  const urls = [...web.allUrls(), web.url(0, '/missing/1.html'), web.url(1, '/private/2.html'), web.url(2, '/gone/x')];
  const seg = await generateSegment(ctx, [urls.slice(0, 14), urls.slice(14)]);
  const counters = await fetch(ctx, { segment: seg, threads: 8 });
  assert.equal(counters.success, 24);
  assert.equal(counters.notfound, 1);
  assert.equal(counters.robots_denied, 1);
  assert.equal(counters.gone, 1);
  const fetched = await readPart(ctx, seg, 'crawl_fetch');
  assert.equal(fetched.length, urls.length);
  const byUrl = new Map(fetched.map((r) => [r.url, r.value]));
  assert.equal(statusName(byUrl.get(web.seeds[0]!)!.status), 'fetch_success');
  assert.equal(statusName(byUrl.get(web.url(0, '/missing/1.html'))!.status), 'fetch_gone');
  assert.equal(statusName(byUrl.get(web.url(1, '/private/2.html'))!.status), 'fetch_gone');
  assert.match(byUrl.get(web.url(1, '/private/2.html'))!.metaData._pst_![0]!, /^robots_denied\(18\)/);
  const content = await readPart(ctx, seg, 'content');
  assert.ok(content.some((c) => c.url === web.seeds[1] && /Host 1 page 0/.test(Buffer.from(c.value.content).toString())));
  assert.equal(web.requestsFor(web.url(1, '/private/2.html')).length, 0, 'robots-disallowed URL never requested');
  const s = await ctx.storage.openSegment(seg);
  assert.equal(await s.isComplete('crawl_fetch'), true);
  assert.equal(await s.isComplete('content'), true);
  await s.close();
  await assert.rejects(fetch(ctx, { segment: seg }), { code: 'NUTCH_SEGMENT_ALREADY_FETCHED' });
});

test('fetch: refuses without http.agent.name', async (t) => {
  const ctx = fetchContext(t, { 'http.agent.name': '' });
  const seg = await generateSegment(ctx, [['http://127.0.0.1:1/']]);
  await assert.rejects(fetch(ctx, { segment: seg }), { code: 'NUTCH_CONFIG_MISSING_AGENT' });
});
