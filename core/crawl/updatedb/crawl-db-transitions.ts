/**
 * The status transitions of Nutch's CrawlDbReducer, one function per kind of segment datum: a link
 * to a URL, a fetch that got content (or a redirect, or not-modified), a fetch to retry, a page gone.
 * Each takes the datum being built (the latest of fetch and old, see crawl-db-reducer.ts) and returns
 * the URL's new CrawlDb datum; the FetchSchedule sets its next fetch time and interval.
 */
import { CrawlStatus, cloneCrawlDatum, type CrawlDatum } from '../../model/crawl-datum.js';
import type { Metadata } from '../../model/metadata.js';
import { FetchScheduleState } from '../../extension-points/fetch-schedule.js';
import type { CrawlDbReducerEnv } from './crawl-db-reducer.js';

/** What a transition knows of the URL besides the datum it builds. */
export interface TransitionInput {
  url: string;
  old: CrawlDatum | null;
  fetch: CrawlDatum;
  /** crawl_parse's signature, else the fetch datum's. */
  signature: Uint8Array | null;
  parseMeta: Metadata | null;
  /** The old datum's fetch and modified times (0 for a new URL): what the schedule compares with. */
  prevFetchTime: number;
  prevModifiedTime: number;
  env: CrawlDbReducerEnv;
}

/** STATUS_LINKED: a known URL stays as it was (its score changes later); a new one is db_unfetched with its initial score. */
export function linkedTransition(t: TransitionInput, result: CrawlDatum): CrawlDatum {
  const { url, old, env } = t;
  if (old) return cloneCrawlDatum(old);
  result = env.schedule.initializeSchedule(url, result);
  result.status = CrawlStatus.STATUS_DB_UNFETCHED;
  try {
    env.scoring.initialScore(url, result);
  } catch (err) {
    env.log?.warn(`Cannot filter init score for url ${url.slice(0, 300)}, using default: ${(err as Error).message}`);
    result.score = 0;
  }
  return result;
}

/** Success, redirects and not-modified: the schedule decides the next fetch, the signature whether the page changed. */
export function fetchedTransition(t: TransitionInput, result: CrawlDatum): CrawlDatum {
  const { url, old, fetch, signature, env } = t;
  const modified = modifiedState(old, fetch, signature);
  result = env.schedule.setFetchSchedule(url, result, t.prevFetchTime, t.prevModifiedTime, fetch.fetchTime, fetch.modifiedTime, modified);
  if (modified === FetchScheduleState.STATUS_NOTMODIFIED) {
    result.status = CrawlStatus.STATUS_DB_NOTMODIFIED;
    // NUTCH-1341: not modified by signature, so the modified time stays the previous one
    result.modifiedTime = t.prevModifiedTime;
    if (old) result.signature = copyOf(old.signature);
  } else {
    if (fetch.status === CrawlStatus.STATUS_FETCH_SUCCESS) result.status = CrawlStatus.STATUS_DB_FETCHED;
    else if (fetch.status === CrawlStatus.STATUS_FETCH_REDIR_PERM) result.status = CrawlStatus.STATUS_DB_REDIR_PERM;
    else if (fetch.status === CrawlStatus.STATUS_FETCH_REDIR_TEMP) result.status = CrawlStatus.STATUS_DB_REDIR_TEMP;
    else result.status = old ? old.status : CrawlStatus.STATUS_DB_UNFETCHED;
    result.signature = copyOf(signature);
  }
  // NUTCH-1656: metadata from the parse (db.parsemeta.to.crawldb)
  if (t.parseMeta) for (const [k, v] of Object.entries(t.parseMeta)) result.metaData[k] = [...v];
  // an interval above the maximum forces a refetch, so a page never stays notmodified while
  // the segment holding its content is long deleted
  if (env.maxInterval < result.fetchInterval) result = env.schedule.forceRefetch(url, result, false);
  return result;
}

/** STATUS_FETCH_RETRY: db_unfetched again until db.fetch.retry.max retries, then db_gone. */
export function retryTransition(t: TransitionInput, result: CrawlDatum): CrawlDatum {
  const { url, old, fetch, env } = t;
  if (old) result.signature = copyOf(old.signature);
  result = env.schedule.setPageRetrySchedule(url, result, t.prevFetchTime, t.prevModifiedTime, fetch.fetchTime);
  if (result.retries < env.retryMax) {
    result.status = CrawlStatus.STATUS_DB_UNFETCHED;
    return result;
  }
  result.status = CrawlStatus.STATUS_DB_GONE;
  return env.schedule.setPageGoneSchedule(url, result, t.prevFetchTime, t.prevModifiedTime, fetch.fetchTime);
}

/** STATUS_FETCH_GONE: db_gone, on the schedule's gone interval. */
export function goneTransition(t: TransitionInput, result: CrawlDatum): CrawlDatum {
  if (t.old) result.signature = copyOf(t.old.signature);
  result.status = CrawlStatus.STATUS_DB_GONE;
  return t.env.schedule.setPageGoneSchedule(t.url, result, t.prevFetchTime, t.prevModifiedTime, t.fetch.fetchTime);
}

/** Not-modified by the protocol, or by comparing signatures — only for successful fetches, not redirects (NUTCH-1422). */
function modifiedState(old: CrawlDatum | null, fetch: CrawlDatum, signature: Uint8Array | null): number {
  if (fetch.status === CrawlStatus.STATUS_FETCH_NOTMODIFIED) return FetchScheduleState.STATUS_NOTMODIFIED;
  if (fetch.status === CrawlStatus.STATUS_FETCH_SUCCESS && old?.signature && signature) {
    return sameBytes(old.signature, signature) ? FetchScheduleState.STATUS_NOTMODIFIED : FetchScheduleState.STATUS_MODIFIED;
  }
  return FetchScheduleState.STATUS_UNKNOWN;
}

function copyOf(bytes: Uint8Array | null): Uint8Array | null {
  return bytes ? new Uint8Array(bytes) : null;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
