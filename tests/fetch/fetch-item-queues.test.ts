import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FetchItemQueues } from '../../core/crawl/fetch/fetch-item-queues.js';
import { createFetchItem, queueIdOf, parseQueueMode } from '../../core/crawl/fetch/fetch-item.js';
import { fetchStatusFor } from '../../core/crawl/fetch/status-mapping.js';
import { createCrawlDatum, CrawlStatus, statusName } from '../../core/model/crawl-datum.js';
import { ProtocolStatusCode } from '../../core/model/protocol-status.js';
import { createTestContext } from '../../sdk/testing.js';

const datum = () => createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED });
function queues(defines: Record<string, string> = {}) {
  return new FetchItemQueues(createTestContext({ defines }).conf);
}

test('queue ids by host, domain and IP, as Nutch', async () => {
  assert.equal(await queueIdOf(new URL('http://WWW.Example.co.uk:8080/x'), 'byHost'), 'http://www.example.co.uk');
  assert.equal(await queueIdOf(new URL('https://a.b.example.co.uk/x'), 'byDomain'), 'https://example.co.uk');
  assert.equal(await queueIdOf(new URL('http://localhost/x'), 'byIP'), 'http://127.0.0.1');
  assert.equal(parseQueueMode('byDomain'), 'byDomain');
  assert.equal(parseQueueMode('nonsense'), 'byHost');
  assert.equal(await createFetchItem('not a url', datum(), 'byHost', 0), null);
});

test('a queue hands out one item per delay, round-robin over hosts', async () => {
  const q = queues({ 'fetcher.server.delay': '1' });
  for (const u of ['http://a/1', 'http://a/2', 'http://b/1']) q.add((await createFetchItem(u, datum(), 'byHost', 0))!);
  const now = 1_000_000;
  const first = q.take(now)!;
  const second = q.take(now)!;
  assert.deepEqual([first.url, second.url].sort(), ['http://a/1', 'http://b/1']);
  assert.equal(q.take(now), null, 'a/2 waits: a/1 is in progress');
  q.finish(first, false, now);
  assert.equal(q.take(now + 999), null, 'delay not passed');
  assert.equal(q.nextReadyTime(), now + 1000);
  assert.equal(q.take(now + 1000)!.url, 'http://a/2');
  assert.equal(q.totalSize, 0);
});

test('asap finish (nothing requested) does not wait; exceptions back off and empty the queue', async () => {
  const q = queues({ 'fetcher.server.delay': '1', 'fetcher.max.exceptions.per.queue': '3', 'fetcher.exceptions.per.queue.delay': '2' });
  for (let i = 0; i < 5; i++) q.add((await createFetchItem(`http://a/${i}`, datum(), 'byHost', 0))!);
  const now = 5_000_000;
  const a = q.take(now)!;
  q.finish(a, true, now);
  const b = q.take(now)!;
  assert.equal(b.url, 'http://a/1');
  assert.deepEqual(q.recordException(b.queueId, now), []);
  q.finish(b, false, now);
  assert.equal(q.nextReadyTime(), now + 2000, 'backoff 2 s after the first exception');
  assert.deepEqual(q.recordException(b.queueId, now), []);
  assert.equal(q.nextReadyTime(), now + 4000, 'doubles');
  assert.equal(q.recordException(b.queueId, now).length, 3, 'threshold reached: the rest dropped');
  assert.equal(q.totalSize, 0);
});

test('ProtocolStatus -> CrawlDatum status as Nutch\'s FetcherThread', () => {
  const cases: [number, string][] = [
    [ProtocolStatusCode.SUCCESS, 'fetch_success'], [ProtocolStatusCode.MOVED, 'fetch_redir_perm'],
    [ProtocolStatusCode.TEMP_MOVED, 'fetch_redir_temp'], [ProtocolStatusCode.NOTFOUND, 'fetch_gone'],
    [ProtocolStatusCode.GONE, 'fetch_gone'], [ProtocolStatusCode.ACCESS_DENIED, 'fetch_gone'],
    [ProtocolStatusCode.ROBOTS_DENIED, 'fetch_gone'], [ProtocolStatusCode.NOTMODIFIED, 'fetch_notmodified'],
    [ProtocolStatusCode.EXCEPTION, 'fetch_retry'], [ProtocolStatusCode.RETRY, 'fetch_retry'],
    [ProtocolStatusCode.BLOCKED, 'fetch_retry'], [ProtocolStatusCode.PROTO_NOT_FOUND, 'fetch_retry'],
  ];
  for (const [code, expected] of cases) assert.equal(statusName(fetchStatusFor(code)), expected, String(code));
});

test('a wake() that comes while nobody waits is kept: the next waitForChange() returns at once (a lost wake-up left a fetch idle forever, its feeder waiting for a partition the dispatcher never completed)', { timeout: 30_000 }, async () => {
  const q = queues();
  q.wake();
  await q.waitForChange(Infinity);
  // kept once: a later wait waits for the next change
  let woke = false;
  const waiting = q.waitForChange(Infinity).then(() => (woke = true));
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(woke, false);
  q.wake();
  await waiting;
});
