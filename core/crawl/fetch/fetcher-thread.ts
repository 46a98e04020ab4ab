/**
 * What Nutch's FetcherThread does for one FetchItem: robots.txt (allowed? crawl-delay within
 * fetcher.max.crawl.delay? visits deferred?), the protocol fetch, the ProtocolStatus -> CrawlDatum
 * mapping, per-queue exceptions and Retry-After, and redirects (fetch-redirect.ts). Here it is an
 * async task, one per in-flight item, not a thread.
 */
import { errorMessage } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Content } from '../../model/content.js';
import { CrawlStatus, type CrawlDatum } from '../../model/crawl-datum.js';
import { ProtocolStatusCode, protocolStatus, type ProtocolStatus } from '../../model/protocol-status.js';
import type { Protocol, ProtocolFactory } from '../../extension-points/protocol.js';
import type { URLNormalizers } from '../../extension-points/url-normalizer.js';
import type { URLFilters } from '../../extension-points/url-filter.js';
import type { ScoringFilters } from '../../extension-points/scoring-filter.js';
import { count, type Counters } from '../progress.js';
import type { FetchItemQueues } from './fetch-item-queues.js';
import type { FetchItemQueue } from './fetch-item-queue.js';
import type { ContentBudget } from '../../protocol/content-budget.js';
import type { FetchItem } from './fetch-item.js';
import { handleRedirect } from './fetch-redirect.js';
import { fetchStatusFor, statusCounterName } from './status-mapping.js';

export interface FetcherThreadDeps {
  queues: FetchItemQueues;
  protocols: ProtocolFactory;
  normalizers: URLNormalizers;
  filters: URLFilters;
  scoring: ScoringFilters;
  counters: Counters;
  log: Logger;
  maxRedirect: number;
  /** ms; -1 = any robots crawl-delay is accepted. */
  maxCrawlDelay: number;
  /** ms; the least crawl-delay taken from robots.txt. */
  minCrawlDelay: number;
  maxUrlLength: number;
  /** fetcher.content.budget: bytes of response bodies held at once across all in-flight items. */
  budget?: ContentBudget;
  /**
   * Asked right before each request to the item's host (robots.txt, the page): false when this worker
   * no longer holds the item's partition, and the item is abandoned unrecorded (another worker has it).
   */
  mayRequest?(item: FetchItem): Promise<boolean>;
  /** Records one result (the fetcher writes it and runs the inline parse). */
  output(item: FetchItem, url: string, datum: CrawlDatum, content: Content | null, status: ProtocolStatus | null, fetchStatus: number): Promise<void>;
}

/** Processes one item; returns true when no request was made (the queue need not wait its delay). */
export async function processItem(d: FetcherThreadDeps, item: FetchItem): Promise<boolean> {
  const { url, datum } = item;
  let protocol: Protocol;
  try {
    protocol = await d.protocols.getProtocol(url);
  } catch (err) {
    count(d.counters, 'proto_not_found');
    d.log.warn(`fetch of ${url} failed: ${errorMessage(err)}`);
    await d.output(item, url, datum, null, protocolStatus(ProtocolStatusCode.PROTO_NOT_FOUND, errorMessage(err)), CrawlStatus.STATUS_FETCH_RETRY);
    return true;
  }
  const queue = d.queues.get(item.queueId);
  // the item may have waited (robots.txt, a frozen process) since it was launched: is its partition still ours?
  if (d.mayRequest && !(await d.mayRequest(item))) return true;
  d.log.debug(`fetching ${url} (partition ${item.partition})`); // as Nutch's FetcherThread (there at INFO)
  if (protocol.getRobotRules) {
    const robots = await applyRobotRules(d, item, protocol, queue);
    if (robots === 'deferred') return false;
    if (robots === 'denied') return true;
    // robots.txt may have taken long: asked again right before the page
    if (d.mayRequest && !(await d.mayRequest(item))) return true;
  }
  await fetchAndRecord(d, item, protocol, queue);
  return false;
}

/**
 * robots.txt: 'deferred' (5xx/429: this URL and the rest of its queue retried later, as Nutch),
 * 'denied' (disallowed, or a crawl-delay over fetcher.max.crawl.delay), both recorded; else 'allowed',
 * with the queue's delay raised to the robots crawl-delay.
 */
async function applyRobotRules(d: FetcherThreadDeps, item: FetchItem, protocol: Protocol, queue: FetchItemQueue): Promise<'allowed' | 'denied' | 'deferred'> {
  const { url, datum } = item;
  // robots.txt redirects pass the same URL filters as pages and their redirects
  const rules = await protocol.getRobotRules!(url, datum, { allowUrl: (u) => u.length <= d.maxUrlLength && d.filters.filter(u) !== null });
  if (rules.isDeferVisits?.()) {
    count(d.counters, 'robots_defer_visits');
    await d.output(item, url, datum, null, protocolStatus(ProtocolStatusCode.RETRY, 'robots.txt deferred visits'), CrawlStatus.STATUS_FETCH_RETRY);
    for (const dropped of d.queues.emptyQueue(item.queueId)) {
      count(d.counters, 'robots_defer_visits_dropped');
      await d.output(dropped, dropped.url, dropped.datum, null, protocolStatus(ProtocolStatusCode.RETRY, 'robots.txt deferred visits'), CrawlStatus.STATUS_FETCH_RETRY);
    }
    return 'deferred';
  }
  if (!rules.isAllowed(url)) {
    count(d.counters, 'robots_denied');
    await d.output(item, url, datum, null, protocolStatus(ProtocolStatusCode.ROBOTS_DENIED), CrawlStatus.STATUS_FETCH_GONE);
    return 'denied';
  }
  const crawlDelay = rules.getCrawlDelay();
  if (crawlDelay > 0) {
    if (d.maxCrawlDelay >= 0 && crawlDelay > d.maxCrawlDelay) {
      count(d.counters, 'robots_denied_maxcrawldelay');
      d.log.info(`Crawl-Delay for ${url} too long (${crawlDelay / 1000} s > fetcher.max.crawl.delay), skipping`);
      await d.output(item, url, datum, null, protocolStatus(ProtocolStatusCode.ROBOTS_DENIED, `Crawl-delay ${crawlDelay / 1000} s too long`), CrawlStatus.STATUS_FETCH_GONE);
      return 'denied';
    }
    queue.crawlDelay = Math.max(crawlDelay, d.minCrawlDelay);
    queue.robotsDelaySet = true;
  }
  return 'allowed';
}

/** The page: fetched within the content budget, counted, recorded; then its redirect, if any. */
async function fetchAndRecord(d: FetcherThreadDeps, item: FetchItem, protocol: Protocol, queue: FetchItemQueue): Promise<void> {
  const { url, datum } = item;
  // the response's bytes count against fetcher.content.budget until its output is written
  const lease = d.budget?.lease();
  try {
    const out = await protocol.getProtocolOutput(url, datum, lease ? { memory: lease } : undefined);
    const status = out.status;
    count(d.counters, statusCounterName(status.code));
    if (out.content) count(d.counters, 'bytes_downloaded', out.content.content.length);
    if (status.code === ProtocolStatusCode.ACCESS_DENIED && /http\.address\.deny/.test(status.args[0] ?? '')) {
      count(d.counters, 'address_denied');
      d.log.info(`fetch of ${url} refused: ${status.args[0]}`);
    }
    if (status.code === ProtocolStatusCode.EXCEPTION) noteException(d, item, queue, status, out.content);
    await d.output(item, url, datum, out.content, status, fetchStatusFor(status.code));
    if (status.code === ProtocolStatusCode.MOVED || status.code === ProtocolStatusCode.TEMP_MOVED) {
      await handleRedirect(d, item, status.args[0] ?? '', status.code === ProtocolStatusCode.TEMP_MOVED);
    }
  } finally {
    lease?.release();
  }
}

/**
 * A failed fetch counts against its queue (fetcher.max.exceptions.per.queue drops the rest of it), and
 * a Retry-After pauses the queue, capped by fetcher.max.crawl.delay.
 */
function noteException(d: FetcherThreadDeps, item: FetchItem, queue: FetchItemQueue, status: ProtocolStatus, content: Content | null): void {
  d.log.info(`fetch of ${item.url} failed with: ${status.args[0] ?? 'exception'}`);
  const retryAfter = Number(content?.metadata['Retry-After']?.[0]);
  if (Number.isFinite(retryAfter) && retryAfter > 0) {
    const wait = d.maxCrawlDelay >= 0 ? Math.min(retryAfter, d.maxCrawlDelay) : retryAfter;
    queue.pauseUntil(Date.now() + wait);
    count(d.counters, 'retry_after');
  }
  const dropped = d.queues.recordException(item.queueId);
  if (dropped.length) {
    count(d.counters, 'AboveExceptionThresholdInQueue', dropped.length);
    d.log.info(`queue ${item.queueId} dropped ${dropped.length} URLs after ${queue.exceptions} exceptions (fetcher.max.exceptions.per.queue)`);
  }
}
