/** The fetcher honours generate -hostdb's per-host delay (_variableFetchDelay_), as Nutch's FetchItemQueue. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FetchItemQueue } from '../../core/crawl/fetch/fetch-item-queue.js';
import { createCrawlDatum, DatumMeta } from '../../core/model/crawl-datum.js';
import type { FetchItem } from '../../core/crawl/fetch/fetch-item.js';

function item(url: string, delay?: string): FetchItem {
  const datum = createCrawlDatum({ status: 0x21, metaData: delay === undefined ? {} : { [DatumMeta.VARIABLE_FETCH_DELAY_KEY]: [delay] } });
  return { url, u: new URL(url), datum, queueId: 'http://a.example', partition: 0, redirects: 0 };
}

test('the first item carrying _variableFetchDelay_ sets the queue delay; later ones and items without it do not', () => {
  const q = new FetchItemQueue('http://a.example', 1, 5000, 0);
  q.add(item('http://a.example/1'));
  assert.equal(q.crawlDelay, 5000, 'no variable delay: fetcher.server.delay');
  q.add(item('http://a.example/2', '1200'));
  assert.equal(q.crawlDelay, 1200);
  q.add(item('http://a.example/3', '9000'));
  assert.equal(q.crawlDelay, 1200, 'set once per queue');
  const bad = new FetchItemQueue('http://b.example', 1, 5000, 0);
  bad.add(item('http://b.example/', 'soon'));
  assert.equal(bad.crawlDelay, 5000, 'a value that is not a number is ignored');
});
