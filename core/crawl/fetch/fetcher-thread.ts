/**
 * What Nutch's FetcherThread does for one FetchItem: robots.txt (allowed? crawl-delay within
 * fetcher.max.crawl.delay? visits deferred?), the protocol fetch, the ProtocolStatus -> CrawlDatum
 * mapping, per-queue exceptions and Retry-After, and redirects (http.redirect.max: 0 records the target
 * as a linked datum for the next round; > 0 queues it now, normalised with scope `fetcher` and
 * filtered). Here it is an async task, one per in-flight item, not a thread.
 */
import { errorMessage } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Content } from '../../model/content.js';
import { CrawlStatus, DatumMeta, createCrawlDatum, type CrawlDatum } from '../../model/crawl-datum.js';
import { ProtocolStatusCode, protocolStatus, type ProtocolStatus } from '../../model/protocol-status.js';
import type { ProtocolFactory } from '../../extension-points/protocol.js';
import type { URLNormalizers } from '../../extension-points/url-normalizer.js';
import type { URLFilters } from '../../extension-points/url-filter.js';
import type { ScoringFilters } from '../../extension-points/scoring-filter.js';
import { count, type Counters } from '../progress.js';
import type { FetchItemQueues } from './fetch-item-queues.js';
import type { ContentBudget } from '../../protocol/content-budget.js';
import { createFetchItem, type FetchItem } from './fetch-item.js';
import { chooseRepr } from '../../url/choose-repr.js';
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
  let protocol;
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
    // robots.txt redirects pass the same URL filters as pages and their redirects
    const rules = await protocol.getRobotRules(url, datum, { allowUrl: (u) => u.length <= d.maxUrlLength && d.filters.filter(u) !== null });
    if (rules.isDeferVisits?.()) {
      // robots.txt answered 5xx/429: retry this URL and the rest of its queue later, as Nutch
      count(d.counters, 'robots_defer_visits');
      await d.output(item, url, datum, null, protocolStatus(ProtocolStatusCode.RETRY, 'robots.txt deferred visits'), CrawlStatus.STATUS_FETCH_RETRY);
      for (const dropped of d.queues.emptyQueue(item.queueId)) {
        count(d.counters, 'robots_defer_visits_dropped');
        await d.output(dropped, dropped.url, dropped.datum, null, protocolStatus(ProtocolStatusCode.RETRY, 'robots.txt deferred visits'), CrawlStatus.STATUS_FETCH_RETRY);
      }
      return false;
    }
    if (!rules.isAllowed(url)) {
      count(d.counters, 'robots_denied');
      await d.output(item, url, datum, null, protocolStatus(ProtocolStatusCode.ROBOTS_DENIED), CrawlStatus.STATUS_FETCH_GONE);
      return true;
    }
    const crawlDelay = rules.getCrawlDelay();
    if (crawlDelay > 0) {
      if (d.maxCrawlDelay >= 0 && crawlDelay > d.maxCrawlDelay) {
        count(d.counters, 'robots_denied_maxcrawldelay');
        d.log.info(`Crawl-Delay for ${url} too long (${crawlDelay / 1000} s > fetcher.max.crawl.delay), skipping`);
        await d.output(item, url, datum, null, protocolStatus(ProtocolStatusCode.ROBOTS_DENIED, `Crawl-delay ${crawlDelay / 1000} s too long`), CrawlStatus.STATUS_FETCH_GONE);
        return true;
      }
      queue.crawlDelay = Math.max(crawlDelay, d.minCrawlDelay);
      queue.robotsDelaySet = true;
    }
  }

  if (protocol.getRobotRules && d.mayRequest && !(await d.mayRequest(item))) return true;
  // the response's bytes count against fetcher.content.budget until its output is written
  const lease = d.budget?.lease();
  try {
    const out = await protocol.getProtocolOutput(url, datum, lease ? { memory: lease } : undefined);
    const status = out.status;
    const fetchStatus = fetchStatusFor(status.code);
    count(d.counters, statusCounterName(status.code));
    if (out.content) count(d.counters, 'bytes_downloaded', out.content.content.length);
    if (status.code === ProtocolStatusCode.ACCESS_DENIED && /http\.address\.deny/.test(status.args[0] ?? '')) {
      count(d.counters, 'address_denied');
      d.log.info(`fetch of ${url} refused: ${status.args[0]}`);
    }
    if (status.code === ProtocolStatusCode.EXCEPTION) {
      d.log.info(`fetch of ${url} failed with: ${status.args[0] ?? 'exception'}`);
      const retryAfter = Number(out.content?.metadata['Retry-After']?.[0]);
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
    await d.output(item, url, datum, out.content, status, fetchStatus);
    if (status.code === ProtocolStatusCode.MOVED || status.code === ProtocolStatusCode.TEMP_MOVED) {
      await handleRedirect(d, item, status.args[0] ?? '', status.code === ProtocolStatusCode.TEMP_MOVED);
    }
  } finally {
    lease?.release();
  }
  return false;
}

async function handleRedirect(d: FetcherThreadDeps, item: FetchItem, target: string, temp: boolean): Promise<void> {
  if (!target || target.length > d.maxUrlLength) {
    count(d.counters, 'redirect_dropped');
    return;
  }
  const normalized = d.normalizers.normalize(target);
  const filtered = normalized === null ? null : d.filters.filter(normalized);
  if (filtered === null) {
    count(d.counters, 'redirect_filtered');
    d.log.debug(`redirect ${item.url} -> ${target} filtered`);
    return;
  }
  if (filtered === item.url) return; // a redirect to itself is not followed (Nutch)
  if (isWebUrl(item.url) && !isWebUrl(filtered)) {
    // a remote server must never make the crawler read a local resource (file:///etc/passwd)
    let handled = true;
    try {
      d.protocols.select(filtered);
    } catch {
      handled = false;
    }
    count(d.counters, handled ? 'redirect_scheme_refused' : 'redirect_unsupported_scheme');
    d.log.info(`redirect ${item.url} -> ${filtered.slice(0, 200)} not followed: an http(s) URL never redirects to another scheme`);
    return;
  }
  const newDatum = createCrawlDatum({
    status: d.maxRedirect > 0 ? CrawlStatus.STATUS_DB_UNFETCHED : CrawlStatus.STATUS_LINKED,
    fetchInterval: item.datum.fetchInterval,
    score: item.datum.score,
    metaData: structuredClone(item.datum.metaData),
  });
  delete newDatum.metaData[DatumMeta.PROTO_STATUS_KEY];
  // As Nutch's FetcherThread: the representative URL runs along the redirect chain, starting from the
  // source's own (or the source), and every redirect datum carries it.
  const sourceRepr = item.datum.metaData[DatumMeta.WRITABLE_REPR_URL_KEY]?.[0] ?? item.url;
  newDatum.metaData[DatumMeta.WRITABLE_REPR_URL_KEY] = [chooseRepr(sourceRepr, filtered, temp)];
  d.scoring.initialScore(filtered, newDatum);
  if (d.maxRedirect <= 0) {
    // recorded for the next round
    count(d.counters, 'redirect_recorded');
    await d.output(item, filtered, newDatum, null, null, CrawlStatus.STATUS_LINKED);
    return;
  }
  if (item.redirects + 1 > d.maxRedirect) {
    count(d.counters, 'redirect_count_exceeded');
    await d.output(item, filtered, newDatum, null, protocolStatus(ProtocolStatusCode.REDIR_EXCEEDED), CrawlStatus.STATUS_FETCH_GONE);
    return;
  }
  try {
    d.protocols.select(filtered);
  } catch {
    count(d.counters, 'redirect_unsupported_scheme');
    d.log.info(`redirect ${item.url} -> ${filtered} not followed: no protocol for its scheme`);
    return;
  }
  const next = await createFetchItem(filtered, newDatum, d.queues.mode, item.partition, item.redirects + 1, d.queues.ipCache);
  if (!next) return;
  count(d.counters, 'redirect_followed');
  d.queues.add(next, true);
}

function isWebUrl(url: string): boolean {
  return /^https?:/i.test(url);
}
