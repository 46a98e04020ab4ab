/**
 * Nutch's CrawlDbReducer as a pure function: what one URL's CrawlDb entry becomes, given its old
 * datum and what the segments say about it (the fetch datum, the linked datums of its inlinks, the
 * signature and parse-meta datums). No storage here; updatedb feeds it one URL group at a time.
 *
 * CrawlDbValues collects a group's datums as Nutch's reduce loop classifies them (latest old and
 * latest fetch by fetch time, the db.update.max.inlinks highest-scoring linked datums), and
 * reduceCrawlDatum applies the status transitions.
 */
import { CrawlStatus, DatumMeta, cloneCrawlDatum, hasDbStatus, hasFetchStatus, statusName, type CrawlDatum } from '../../model/crawl-datum.js';
import type { Metadata } from '../../model/metadata.js';
import { FetchScheduleState, type FetchSchedule } from '../../extension-points/fetch-schedule.js';
import type { ScoringFilters } from '../../extension-points/scoring-filter.js';
import type { Logger } from '../../log.js';

export interface CrawlDbReducerInput {
  /** The CrawlDb's datum (the latest by fetch time when several), or null for a new URL. */
  old: CrawlDatum | null;
  /** The segments' fetch datum (the latest by fetch time), or null. */
  fetch: CrawlDatum | null;
  /** Linked datums (inlinks), highest score first, at most db.update.max.inlinks. */
  linked: CrawlDatum[];
  /** Signature from crawl_parse (STATUS_SIGNATURE), or null. */
  signature: Uint8Array | null;
  /** Metadata from crawl_parse (STATUS_PARSE_META), or null. */
  parseMeta: Metadata | null;
}

export interface CrawlDbReducerEnv {
  schedule: FetchSchedule;
  scoring: Pick<ScoringFilters, 'initialScore' | 'updateDbScore' | 'orphanedScore'>;
  /** db.fetch.retry.max */
  retryMax: number;
  /** db.update.additions.allowed (false with -noAdditions) */
  additionsAllowed: boolean;
  /** db.fetch.interval.max, seconds */
  maxInterval: number;
  log?: Pick<Logger, 'warn'>;
}

/**
 * Collects the datums of one URL as Nutch's reduce loop does. Memory is bounded by maxLinks: only
 * the highest-scoring linked datums are kept (Nutch's InlinkPriorityQueue).
 */
export class CrawlDbValues {
  old: CrawlDatum | null = null;
  fetch: CrawlDatum | null = null;
  signature: Uint8Array | null = null;
  parseMeta: Metadata | null = null;
  /** Linked datums kept so far, as a min-heap on score (ties: the later insertion is "less"). */
  private readonly heap: { datum: CrawlDatum; seq: number }[] = [];
  private seq = 0;
  unknown = 0;

  constructor(private readonly maxLinks: number) {}

  add(datum: CrawlDatum): void {
    if (hasDbStatus(datum)) {
      // always take the latest version
      if (!this.old || this.old.fetchTime < datum.fetchTime) this.old = datum;
      return;
    }
    if (hasFetchStatus(datum)) {
      if (!this.fetch || this.fetch.fetchTime < datum.fetchTime) this.fetch = datum;
      return;
    }
    switch (datum.status) {
      case CrawlStatus.STATUS_LINKED: this.addLinked(datum); break;
      case CrawlStatus.STATUS_SIGNATURE: this.signature = datum.signature; break;
      case CrawlStatus.STATUS_PARSE_META: this.parseMeta = datum.metaData; break;
      default: this.unknown++;
    }
  }

  private addLinked(datum: CrawlDatum): void {
    if (this.maxLinks <= 0) return;
    const entry = { datum, seq: this.seq++ };
    const h = this.heap;
    if (h.length < this.maxLinks) {
      h.push(entry);
      siftUp(h, h.length - 1);
    } else if (less(h[0]!, entry)) {
      h[0] = entry;
      siftDown(h, 0);
    }
  }

  input(): CrawlDbReducerInput {
    const linked = [...this.heap].sort((a, b) => (b.datum.score - a.datum.score) || (a.seq - b.seq)).map((e) => e.datum);
    return { old: this.old, fetch: this.fetch, linked, signature: this.signature, parseMeta: this.parseMeta };
  }
}

type HeapEntry = { datum: CrawlDatum; seq: number };
/** a ranks below b: lower score, or same score inserted later. */
function less(a: HeapEntry, b: HeapEntry): boolean {
  return a.datum.score < b.datum.score || (a.datum.score === b.datum.score && a.seq > b.seq);
}
function siftUp(h: HeapEntry[], i: number): void {
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!less(h[i]!, h[p]!)) return;
    [h[i], h[p]] = [h[p]!, h[i]!];
    i = p;
  }
}
function siftDown(h: HeapEntry[], i: number): void {
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < h.length && less(h[l]!, h[m]!)) m = l;
    if (r < h.length && less(h[r]!, h[m]!)) m = r;
    if (m === i) return;
    [h[i], h[m]] = [h[m]!, h[i]!];
    i = m;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The new CrawlDb datum of a URL, or null when nothing is to be written: a new URL while additions
 * are not allowed, a lone signature, or no data at all. With no new data the old datum comes back
 * unchanged except for ScoringFilter.orphanedScore. Inputs are never mutated.
 */
export function reduceCrawlDatum(url: string, input: CrawlDbReducerInput, env: CrawlDbReducerEnv): CrawlDatum | null {
  const { old, linked } = input;
  // if it doesn't already exist, skip it
  if (!old && !env.additionsAllowed) return null;
  // if there is no fetched datum, perhaps there is a link
  const fetch = input.fetch ?? linked[0] ?? null;
  if (!fetch) {
    if (!old) {
      env.log?.warn(`Missing fetch and old value for ${url.slice(0, 300)}`);
      return null;
    }
    // no new data: only the orphan score may change (pages not fetched and without inlinks)
    const kept = cloneCrawlDatum(old);
    try {
      env.scoring.orphanedScore(url, kept);
    } catch (err) {
      env.log?.warn(`Couldn't update orphaned score, key=${url.slice(0, 300)}: ${(err as Error).message}`);
    }
    return kept;
  }
  const signature = input.signature ?? fetch.signature;
  const prevModifiedTime = old ? old.modifiedTime : 0;
  const prevFetchTime = old ? old.fetchTime : 0;

  // initialize with the latest version, be it fetch or link
  let result = cloneCrawlDatum(fetch);
  if (old) {
    // old metadata, overlaid with the new
    if (Object.keys(old.metaData).length > 0) {
      const merged: Metadata = {};
      for (const [k, v] of Object.entries(old.metaData)) merged[k] = [...v];
      for (const [k, v] of Object.entries(result.metaData)) merged[k] = v;
      result.metaData = merged;
    }
    // the most recent valid modified time
    if (old.modifiedTime > 0 && fetch.modifiedTime === 0) result.modifiedTime = old.modifiedTime;
  }

  switch (fetch.status) {
    case CrawlStatus.STATUS_LINKED:
      if (old) {
        result = cloneCrawlDatum(old);
      } else {
        result = env.schedule.initializeSchedule(url, result);
        result.status = CrawlStatus.STATUS_DB_UNFETCHED;
        try {
          env.scoring.initialScore(url, result);
        } catch (err) {
          env.log?.warn(`Cannot filter init score for url ${url.slice(0, 300)}, using default: ${(err as Error).message}`);
          result.score = 0;
        }
      }
      break;

    case CrawlStatus.STATUS_FETCH_SUCCESS:
    case CrawlStatus.STATUS_FETCH_REDIR_TEMP:
    case CrawlStatus.STATUS_FETCH_REDIR_PERM:
    case CrawlStatus.STATUS_FETCH_NOTMODIFIED: {
      let modified: number = FetchScheduleState.STATUS_UNKNOWN;
      if (fetch.status === CrawlStatus.STATUS_FETCH_NOTMODIFIED) {
        modified = FetchScheduleState.STATUS_NOTMODIFIED;
      } else if (fetch.status === CrawlStatus.STATUS_FETCH_SUCCESS && old?.signature && signature) {
        // only successful fetches (not redirects, NUTCH-1422) compare signatures
        modified = sameBytes(old.signature, signature) ? FetchScheduleState.STATUS_NOTMODIFIED : FetchScheduleState.STATUS_MODIFIED;
      }
      result = env.schedule.setFetchSchedule(url, result, prevFetchTime, prevModifiedTime, fetch.fetchTime, fetch.modifiedTime, modified);
      if (modified === FetchScheduleState.STATUS_NOTMODIFIED) {
        result.status = CrawlStatus.STATUS_DB_NOTMODIFIED;
        // NUTCH-1341: not modified by signature, so the modified time stays the previous one
        result.modifiedTime = prevModifiedTime;
        if (old) result.signature = old.signature ? new Uint8Array(old.signature) : null;
      } else {
        if (fetch.status === CrawlStatus.STATUS_FETCH_SUCCESS) result.status = CrawlStatus.STATUS_DB_FETCHED;
        else if (fetch.status === CrawlStatus.STATUS_FETCH_REDIR_PERM) result.status = CrawlStatus.STATUS_DB_REDIR_PERM;
        else if (fetch.status === CrawlStatus.STATUS_FETCH_REDIR_TEMP) result.status = CrawlStatus.STATUS_DB_REDIR_TEMP;
        else result.status = old ? old.status : CrawlStatus.STATUS_DB_UNFETCHED;
        result.signature = signature ? new Uint8Array(signature) : null;
      }
      // NUTCH-1656: metadata from the parse (db.parsemeta.to.crawldb)
      if (input.parseMeta) for (const [k, v] of Object.entries(input.parseMeta)) result.metaData[k] = [...v];
      // an interval above the maximum forces a refetch, so a page never stays notmodified while
      // the segment holding its content is long deleted
      if (env.maxInterval < result.fetchInterval) result = env.schedule.forceRefetch(url, result, false);
      break;
    }

    case CrawlStatus.STATUS_SIGNATURE:
      env.log?.warn(`Lone CrawlDatum.STATUS_SIGNATURE: ${url.slice(0, 300)}`);
      return null;

    case CrawlStatus.STATUS_FETCH_RETRY:
      if (old) result.signature = old.signature ? new Uint8Array(old.signature) : null;
      result = env.schedule.setPageRetrySchedule(url, result, prevFetchTime, prevModifiedTime, fetch.fetchTime);
      if (result.retries < env.retryMax) {
        result.status = CrawlStatus.STATUS_DB_UNFETCHED;
      } else {
        result.status = CrawlStatus.STATUS_DB_GONE;
        result = env.schedule.setPageGoneSchedule(url, result, prevFetchTime, prevModifiedTime, fetch.fetchTime);
      }
      break;

    case CrawlStatus.STATUS_FETCH_GONE:
      if (old) result.signature = old.signature ? new Uint8Array(old.signature) : null;
      result.status = CrawlStatus.STATUS_DB_GONE;
      result = env.schedule.setPageGoneSchedule(url, result, prevFetchTime, prevModifiedTime, fetch.fetchTime);
      break;

    default:
      // Nutch throws here; one bad record must not fail the whole update, so the old datum stays.
      env.log?.warn(`Unknown fetch status ${statusName(fetch.status)} for ${url.slice(0, 300)}; CrawlDb entry left as it was`);
      return old ? cloneCrawlDatum(old) : null;
  }

  try {
    env.scoring.updateDbScore(url, old, result, linked);
  } catch (err) {
    env.log?.warn(`Couldn't update score, key=${url.slice(0, 300)}: ${(err as Error).message}`);
  }
  // remove generation time, if any
  delete result.metaData[DatumMeta.GENERATE_TIME_KEY];
  return result;
}
