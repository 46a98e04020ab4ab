/**
 * The counters each stage reports, by name: Nutch's counter names (and nutch-ts's additions), so that a
 * stage's result is typed — `(await nutch.fetch(segment)).success` compiles, a misspelt name does not.
 * A counter is present once counted (absent means 0). Stages still count into a plain
 * `Record<string, number>` (core/crawl/progress.ts); `COUNTER_NAMES` below is the same list at run time,
 * and tests/sdk/typed-counters.test.ts checks that every counter a crawl reports is declared here.
 */
import type { ProtocolStatusCode } from '../model/protocol-status.js';
import type { StageName } from './progress.js';

/** A stage's counters: each declared name, present once counted. */
export type StageCounters<Name extends string> = { readonly [K in Name]?: number };

/** Counted by every stage that reads segments (core/crawl/segment-parts.ts) or can be stopped (stage-run.ts). */
const SEGMENT_READER = ['segments', 'segments_skipped', 'parts_skipped', 'stopped'] as const;

/** CrawlDb status names (CrawlDatum statusNames): updatedb counts the status each URL ends with. */
const CRAWLDB_STATUSES = [
  'db_unfetched', 'db_fetched', 'db_gone', 'db_redir_temp', 'db_redir_perm', 'db_notmodified', 'db_duplicate', 'db_orphan',
  'fetch_success', 'fetch_retry', 'fetch_redir_temp', 'fetch_redir_perm', 'fetch_gone', 'fetch_notmodified',
  'signature', 'injected', 'linked', 'parse_metadata',
] as const;

const PARSE = [
  'ParseSegment.errors', 'ParseSegment.timeouts', 'ParseSegment.alreadyParsed', 'ParseSegment.unfinishedReplaced', 'ParseSegment.skipped.segment_closed',
  'ParseSegment.skipped.noFetchStatus', 'ParseSegment.skipped.notFetched', 'ParseSegment.skipped.truncated',
  'ParserStatus.success', 'ParserStatus.failed', 'ParserStatus.notparsed',
  'outlinks.found', 'outlinks.kept', 'outlinks.tooLong', 'outlinks.ignored', 'outlinks.filtered', 'outlinks.overCeiling',
  ...SEGMENT_READER,
] as const;

const FETCH = [
  // one per ProtocolStatus, lower-cased (Nutch's FetcherStatus group)
  'success', 'failed', 'proto_not_found', 'gone', 'moved', 'temp_moved', 'notfound', 'retry', 'exception', 'access_denied',
  'robots_denied', 'redir_exceeded', 'notfetching', 'notmodified', 'wouldblock', 'blocked',
  'bytes_downloaded', 'robots_defer_visits', 'robots_defer_visits_dropped', 'robots_denied_maxcrawldelay', 'address_denied',
  'retry_after', 'AboveExceptionThresholdInQueue', 'hitByTimeLimit', 'hitByThrougputThreshold',
  'redirect_dropped', 'redirect_filtered', 'redirect_scheme_refused', 'redirect_unsupported_scheme', 'redirect_recorded',
  'redirect_count_exceeded', 'redirect_followed',
  'stopped_by_abort', 'skipped', 'parse_failed', 'resumed_skipped', 'content_budget_peak', 'content_budget_refused',
  'partition_lost', 'partition_lost_dropped', 'partition_lost_records', 'partition_failed', 'partition_failed_urls',
  ...SEGMENT_READER,
] as const;

/** Nutch's UpdateHostDb counters (its reducer and ResolverThread); the `<n>_times_failed` ones are TIMES_FAILED below. */
const UPDATEHOSTDB = [
  'total_hosts', 'filtered_records', 'malformed_url', 'malformed_score_lines', 'skipped_not_eligible', 'checked_hosts', 'resolver_errors',
  'new_known_host', 'rediscovered_host', 'existing_known_host', 'new_unknown_host', 'purged_unknown_host', 'existing_unknown_host', 'stopped',
] as const;

/**
 * updatehostdb counts each checked host by its consecutive DNS failures, as Nutch's ResolverThread
 * (`0_times_failed`, `1_times_failed`, …): a family of names, not a list.
 */
type TimesFailed = `${number}_times_failed`;
/** A family of names as an index signature: optional members of a pattern would type as `number | undefined`. */
type CounterFamily<Pattern extends string> = { readonly [K in Pattern]: number };
const TIMES_FAILED = /^\d+_times_failed$/;

/** Nutch's SitemapProcessor counters. */
const SITEMAP = [
  'sitemap_seeds', 'sitemaps_from_hostname', 'filtered_sitemaps_from_hostname', 'filtered_records', 'failed_fetches', 'truncated_sitemaps',
  'sitemaps', 'sitemap_indexes', 'invalid_urls', 'urls_over_limit', 'new_sitemap_entries', 'existing_sitemap_entries', 'duplicate_entries', 'stopped',
] as const;

/** Every stage's declared counter names (the crawl's summary is typed by CrawlSummaryCounters). */
export const COUNTER_NAMES = {
  inject: ['urls_injected', 'urls_injected_unique', 'urls_merged', 'urls_filtered', 'urls_malformed', 'urls_too_long', 'metadata_invalid', 'urls_purged_404', 'urls_purged_filter', 'stopped'],
  generate: [
    'records_scanned', 'candidates', 'selected', 'segments', 'stopped', 'MALFORMED_URL',
    'URL_FILTERS_REJECTED', 'STATUS_REJECTED', 'SCHEDULE_REJECTED', 'WAIT_FOR_UPDATE', 'INTERVAL_REJECTED', 'SCORE_TOO_LOW',
    'URLS_SKIPPED_PER_HOST_OVERFLOW', 'HOSTS_AFFECTED_PER_HOST_OVERFLOW', 'URLS_SKIPPED_SEGMENTS_FULL',
    'NOTHING_SELECTED_EMPTY_CRAWLDB', 'NOTHING_SELECTED_ALL_FILTERED', 'NOTHING_SELECTED_NONE_DUE', 'NOTHING_SELECTED_ALL_OVER_MAX_COUNT',
  ],
  // fetch with inline parse (fetcher.parse) also reports parse's counters, prefixed `parse.`
  fetch: [...FETCH, ...PARSE.map((n) => `parse.${n}` as const)],
  parse: PARSE,
  updatedb: [...CRAWLDB_STATUSES, 'urls_added', 'urls_filtered', 'outlinks', 'gone_records_removed', 'orphan_records_removed', ...SEGMENT_READER],
  invertlinks: ['links_inverted', 'links_ignored', 'urls_filtered', 'linkdb_urls_updated', ...SEGMENT_READER],
  index: [
    'indexed (add/update)', 'deleted (robots=noindex)', 'deleted (parse failed)', 'deleted (gone)', 'deleted (redirects)', 'deleted (duplicates)',
    'skipped (not modified)', 'skipped (unsuccessful)', 'skipped (IndexingFilter)', 'skipped (filtered)', 'skipped (incomplete segment)',
    'errors (IndexingFilter)', 'errors (ScoringFilter)', ...SEGMENT_READER,
  ],
  dedup: ['documents_compared', 'documents_marked_as_duplicate', 'stopped'],
  clean: ['Deleted documents', 'stopped'],
  updatehostdb: UPDATEHOSTDB,
  sitemap: SITEMAP,
} as const satisfies Partial<Record<StageName, readonly string[]>>;

type NamesOf<S extends keyof typeof COUNTER_NAMES> = (typeof COUNTER_NAMES)[S][number];
// a compile-time check that FETCH lists every ProtocolStatus
type MissingStatus = Exclude<Lowercase<keyof typeof ProtocolStatusCode>, NamesOf<'fetch'>>;
const everyProtocolStatus: [MissingStatus] extends [never] ? true : MissingStatus = true;
void everyProtocolStatus;

export type InjectCounters = StageCounters<NamesOf<'inject'>>;
export type GenerateCounters = StageCounters<NamesOf<'generate'>>;
export type FetchCounters = StageCounters<NamesOf<'fetch'>>;
export type ParseCounters = StageCounters<NamesOf<'parse'>>;
export type UpdateDbCounters = StageCounters<NamesOf<'updatedb'>>;
export type InvertLinksCounters = StageCounters<NamesOf<'invertlinks'>>;
export type IndexCounters = StageCounters<NamesOf<'index'>>;
export type DedupCounters = StageCounters<NamesOf<'dedup'>>;
export type CleanCounters = StageCounters<NamesOf<'clean'>>;
export type UpdateHostDbCounters = StageCounters<NamesOf<'updatehostdb'>> & CounterFamily<TimesFailed>;
export type SitemapCounters = StageCounters<NamesOf<'sitemap'>>;

type Prefixed<S extends keyof typeof COUNTER_NAMES> = `${S}.${NamesOf<S>}`;
/**
 * `nutch crawl`'s summary (crawl() and `nutch.crawl().result`): each stage's counters summed over the
 * rounds as `<stage>.<counter>`, the time each stage took, the rounds, and the CrawlDb at the end.
 */
export type CrawlSummaryCounters = CounterFamily<`updatehostdb.${TimesFailed}`> & StageCounters<
  | { [S in keyof typeof COUNTER_NAMES]: Prefixed<S> }[keyof typeof COUNTER_NAMES]
  | `time.${StageName}.ms`
  | 'rounds' | 'rounds.nothing.to.generate' | 'stopped.by.signal' | 'stopped.by.file' | `stopped.in.${StageName}` | `resumed.${StageName}`
  | 'crawldb.total' | `crawldb.${(typeof CRAWLDB_STATUSES)[number]}`
>;

/** Is `name` a counter the stage declares? (the crawl summary: `crawl`). */
export function isDeclaredCounter(stage: keyof typeof COUNTER_NAMES | 'crawl', name: string): boolean {
  if (stage === 'updatehostdb' && TIMES_FAILED.test(name)) return true;
  if (stage !== 'crawl') return (COUNTER_NAMES[stage] as readonly string[]).includes(name);
  if (['rounds', 'rounds.nothing.to.generate', 'stopped.by.signal', 'stopped.by.file', 'crawldb.total'].includes(name)) return true;
  const m = /^(time|stopped\.in|resumed)\.([a-z]+)(\.ms)?$/.exec(name);
  if (m) return (m[1] === 'time') === (m[3] === '.ms');
  if (name.startsWith('crawldb.')) return (CRAWLDB_STATUSES as readonly string[]).includes(name.slice('crawldb.'.length));
  const dot = name.indexOf('.');
  const stage2 = name.slice(0, dot) as keyof typeof COUNTER_NAMES;
  return dot > 0 && Object.hasOwn(COUNTER_NAMES, stage2) && isDeclaredCounter(stage2, name.slice(dot + 1));
}
