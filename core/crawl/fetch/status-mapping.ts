/**
 * ProtocolStatus -> CrawlDatum fetch status, as the switch in Nutch's FetcherThread: SUCCESS ->
 * fetch_success; MOVED / TEMP_MOVED -> fetch_redir_perm / fetch_redir_temp (then the redirect is
 * handled); GONE, NOTFOUND, ACCESS_DENIED, ROBOTS_DENIED, REDIR_EXCEEDED -> fetch_gone; NOTMODIFIED ->
 * fetch_notmodified; EXCEPTION (counted per queue), RETRY, BLOCKED and anything else -> fetch_retry.
 */
import { CrawlStatus } from '../../model/crawl-datum.js';
import { ProtocolStatusCode, protocolStatusName, type ProtocolStatus } from '../../model/protocol-status.js';

export function fetchStatusFor(code: number): number {
  switch (code) {
    case ProtocolStatusCode.SUCCESS:
      return CrawlStatus.STATUS_FETCH_SUCCESS;
    case ProtocolStatusCode.MOVED:
      return CrawlStatus.STATUS_FETCH_REDIR_PERM;
    case ProtocolStatusCode.TEMP_MOVED:
      return CrawlStatus.STATUS_FETCH_REDIR_TEMP;
    case ProtocolStatusCode.GONE:
    case ProtocolStatusCode.NOTFOUND:
    case ProtocolStatusCode.ACCESS_DENIED:
    case ProtocolStatusCode.ROBOTS_DENIED:
    case ProtocolStatusCode.REDIR_EXCEEDED:
      return CrawlStatus.STATUS_FETCH_GONE;
    case ProtocolStatusCode.NOTMODIFIED:
      return CrawlStatus.STATUS_FETCH_NOTMODIFIED;
    default:
      return CrawlStatus.STATUS_FETCH_RETRY;
  }
}

/** Nutch's counter name for a protocol status (FetcherStatus group): success, moved, robots_denied … */
export function statusCounterName(code: number): string {
  return protocolStatusName(code).toLowerCase();
}

/** ProtocolStatus as Nutch's toString, kept in the datum's `_pst_` metadata: `moved(12), lastModified=0: <target>`. */
export function formatProtocolStatus(s: ProtocolStatus): string {
  const base = `${statusCounterName(s.code)}(${s.code}), lastModified=${s.lastModified}`;
  return s.args.length ? `${base}: ${s.args.join(', ')}` : base;
}
