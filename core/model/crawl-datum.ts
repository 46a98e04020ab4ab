/**
 * CrawlDatum: the CrawlDb's record of one URL, with Nutch's status codes (numeric values too).
 * Times are epoch milliseconds, fetchInterval is in seconds, as in Nutch.
 */
import type { Metadata } from './metadata.js';

export const CrawlStatus = {
  /** Page was not fetched yet. */
  STATUS_DB_UNFETCHED: 0x01,
  /** Page was successfully fetched. */
  STATUS_DB_FETCHED: 0x02,
  /** Page no longer exists. */
  STATUS_DB_GONE: 0x03,
  /** Page temporarily redirects to other page. */
  STATUS_DB_REDIR_TEMP: 0x04,
  /** Page permanently redirects to other page. */
  STATUS_DB_REDIR_PERM: 0x05,
  /** Page was successfully fetched and found not modified. */
  STATUS_DB_NOTMODIFIED: 0x06,
  /** Page was marked as being a duplicate of another page. */
  STATUS_DB_DUPLICATE: 0x07,
  /** Page was marked as orphan, no inlinks. */
  STATUS_DB_ORPHAN: 0x08,
  STATUS_FETCH_SUCCESS: 0x21,
  STATUS_FETCH_RETRY: 0x22,
  STATUS_FETCH_REDIR_TEMP: 0x23,
  STATUS_FETCH_REDIR_PERM: 0x24,
  STATUS_FETCH_GONE: 0x25,
  STATUS_FETCH_NOTMODIFIED: 0x26,
  STATUS_SIGNATURE: 0x41,
  STATUS_INJECTED: 0x42,
  STATUS_LINKED: 0x43,
  STATUS_PARSE_META: 0x44,
} as const;

export type CrawlStatusCode = (typeof CrawlStatus)[keyof typeof CrawlStatus];

/** Nutch's status names as readdb prints them (db_unfetched, fetch_success, …). */
export const statusNames: Record<number, string> = {
  0x01: 'db_unfetched', 0x02: 'db_fetched', 0x03: 'db_gone', 0x04: 'db_redir_temp', 0x05: 'db_redir_perm',
  0x06: 'db_notmodified', 0x07: 'db_duplicate', 0x08: 'db_orphan',
  0x21: 'fetch_success', 0x22: 'fetch_retry', 0x23: 'fetch_redir_temp', 0x24: 'fetch_redir_perm',
  0x25: 'fetch_gone', 0x26: 'fetch_notmodified',
  0x41: 'signature', 0x42: 'injected', 0x43: 'linked', 0x44: 'parse_metadata',
};

export function statusName(status: number): string {
  return statusNames[status] ?? `unknown(${status})`;
}

/** Highest status that is a CrawlDb status (Nutch's STATUS_DB_MAX). */
export const STATUS_DB_MAX = 0x1f;
export const STATUS_FETCH_MAX = 0x3f;

export function hasDbStatus(datum: Pick<CrawlDatum, 'status'>): boolean {
  return datum.status <= STATUS_DB_MAX;
}

export function hasFetchStatus(datum: Pick<CrawlDatum, 'status'>): boolean {
  return datum.status > STATUS_DB_MAX && datum.status <= STATUS_FETCH_MAX;
}

export interface CrawlDatum {
  status: number;
  /** When the page is next due (epoch ms). */
  fetchTime: number;
  retries: number;
  /** Seconds between fetches. */
  fetchInterval: number;
  score: number;
  /** Content signature, or null when never computed. */
  signature: Uint8Array | null;
  /** Last-Modified of the content (epoch ms), 0 when unknown. */
  modifiedTime: number;
  metaData: Metadata;
}

export function createCrawlDatum(init: Partial<CrawlDatum> & { status: number }): CrawlDatum {
  return {
    fetchTime: Date.now(),
    retries: 0,
    fetchInterval: 30 * 24 * 3600,
    score: 1,
    signature: null,
    modifiedTime: 0,
    metaData: {},
    ...init,
  };
}

export function cloneCrawlDatum(d: CrawlDatum): CrawlDatum {
  const metaData: Metadata = {};
  for (const [k, v] of Object.entries(d.metaData)) metaData[k] = [...v];
  return { ...d, signature: d.signature ? new Uint8Array(d.signature) : null, metaData };
}

/** Well-known CrawlDatum metadata keys (Nutch's Nutch.java constants). */
export const DatumMeta = {
  GENERATE_TIME_KEY: '_ngt_',
  PROTO_STATUS_KEY: '_pst_',
  /** The HTTP status code of the last fetch (Nutch's PROTOCOL_STATUS_CODE_KEY), counted by protocolstats. */
  PROTOCOL_STATUS_CODE_KEY: 'nutch.protocol.code',
  FETCH_TIME_KEY: '_ftk_',
  FETCH_STATUS_KEY: '_fst_',
  SCORE_KEY: '_scr_',
  SEGMENT_NAME_KEY: 'nutch.segment.name',
  SIGNATURE_KEY: 'nutch.content.digest',
  WRITABLE_REPR_URL_KEY: '_repr_',
  FIXED_INTERVAL_KEY: 'fixedInterval',
  /** Milliseconds between fetches of the URL's host queue, set by generate -hostdb (generate.fetch.delay.expr). */
  VARIABLE_FETCH_DELAY_KEY: '_variableFetchDelay_',
} as const;
