/**
 * A redirect as Nutch's FetcherThread handles it: the target normalised (scope `fetcher`) and
 * filtered, never from http(s) to another scheme, then with http.redirect.max = 0 recorded as a
 * linked datum for the next round, else queued now (up to http.redirect.max hops). The redirect
 * datum carries the representative URL along the chain (URLUtil.chooseRepr).
 */
import { CrawlStatus, DatumMeta, createCrawlDatum } from '../../model/crawl-datum.js';
import { ProtocolStatusCode, protocolStatus } from '../../model/protocol-status.js';
import { count } from '../progress.js';
import { createFetchItem, type FetchItem } from './fetch-item.js';
import { chooseRepr } from '../../url/choose-repr.js';
import type { FetcherThreadDeps } from './fetcher-thread.js';

export async function handleRedirect(d: FetcherThreadDeps, item: FetchItem, target: string, temp: boolean): Promise<void> {
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
