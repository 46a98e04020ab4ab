/**
 * The storage contracts stages code against (DESIGN §5, §5.1). Asynchronous (Promises,
 * AsyncIterables, batched writes) although the embedded engine is synchronous underneath, so a
 * network engine (PostgreSQL) fits unchanged. Stage logic never touches files, paths or SQL.
 *
 * What every engine guarantees (tests/storage/conformance.ts checks each on every engine):
 * - Key order: scans return URLs in Unicode code-point order (compareUrls in url-order.ts), the
 *   order of SQLite's BINARY and PostgreSQL's `COLLATE "C"` on UTF-8; merge-joins rely on it.
 * - Update sessions are atomic: nothing a session writes is visible before commit(); abort(), an
 *   error or the death of the process leaves the previous state intact and readable, also to
 *   readers running during the session.
 * - The writer lock: one update session per store at a time, across processes and machines. A
 *   second beginUpdate() fails with NUTCH_STORAGE_LOCKED naming the holder; a lock whose holder is
 *   dead goes away by itself (or with a warning); `force` takes it whatever it holds, as Nutch's -force.
 * - Segment parts: a partition is complete once its writer's finish() returned; a part is complete
 *   (Nutch's `_SUCCESS`) once all `partitionCount()` partitions are. The partition count is stored
 *   with the segment when crawl_generate is written.
 * - Memory is bounded by batch sizes, never by the size of a store.
 */
import type { CrawlDatum } from '../model/crawl-datum.js';
import type { Content } from '../model/content.js';
import type { ParseData, ParseText } from '../model/parse.js';
import type { Inlinks } from '../model/inlinks.js';
import type { HostDatum } from '../model/host-datum.js';

export interface Keyed<V> {
  url: string;
  value: V;
}

export interface ScanOptions {
  /** Records fetched per round trip (default storage.batch.size). */
  batchSize?: number;
  /** Start at this URL (inclusive); scans are in URL order. */
  fromUrl?: string;
}

/** CrawlDb: one CrawlDatum per URL, read in URL order. */
export interface CrawlDbReader {
  readonly path: string;
  get(url: string): Promise<CrawlDatum | null>;
  getMany(urls: readonly string[]): Promise<Map<string, CrawlDatum>>;
  scan(opts?: ScanOptions): AsyncIterable<Keyed<CrawlDatum>>;
  count(): Promise<number>;
  close(): Promise<void>;
  /** False while the store was never written (no session ever committed). */
  exists(): Promise<boolean>;
}

/**
 * A write session over the CrawlDb: nothing it writes is visible to readers of the previous state
 * until commit(); a crash or abort() leaves the previous state intact (atomic stages).
 */
export interface CrawlDbUpdate {
  put(records: readonly Keyed<CrawlDatum>[]): Promise<void>;
  delete(urls: readonly string[]): Promise<void>;
  /** Reads see this session's own writes. */
  get(url: string): Promise<CrawlDatum | null>;
  getMany(urls: readonly string[]): Promise<Map<string, CrawlDatum>>;
  /** Records in the CrawlDb as this session sees it (its own puts and deletes included). */
  count(): Promise<number>;
  scan(opts?: ScanOptions): AsyncIterable<Keyed<CrawlDatum>>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export interface CrawlDb extends CrawlDbReader {
  /** Takes the writer lock (see the guarantees above) and opens an update session. */
  beginUpdate(opts?: { force?: boolean }): Promise<CrawlDbUpdate>;
}

/** LinkDb: the Inlinks of each URL. */
export interface LinkDbReader {
  readonly path: string;
  get(url: string): Promise<Inlinks | null>;
  scan(opts?: ScanOptions): AsyncIterable<Keyed<Inlinks>>;
  count(): Promise<number>;
  close(): Promise<void>;
  /** False while the store was never written (no session ever committed). */
  exists(): Promise<boolean>;
  getMany(urls: readonly string[]): Promise<Map<string, Inlinks>>;
}

/** A write session over the LinkDb, atomic as CrawlDbUpdate; reads see this session's own writes. */
export interface LinkDbUpdate {
  put(records: readonly Keyed<Inlinks>[]): Promise<void>;
  delete(urls: readonly string[]): Promise<void>;
  get(url: string): Promise<Inlinks | null>;
  getMany(urls: readonly string[]): Promise<Map<string, Inlinks>>;
  scan(opts?: ScanOptions): AsyncIterable<Keyed<Inlinks>>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export interface LinkDb extends LinkDbReader {
  beginUpdate(opts?: { force?: boolean }): Promise<LinkDbUpdate>;
}

/** One HostDb record: a host name (lower case, no port, as Nutch's URLUtil.getHost) and its HostDatum. */
export interface HostRecord {
  host: string;
  datum: HostDatum;
}

export interface HostScanOptions {
  /** Records fetched per round trip (default storage.batch.size). */
  batchSize?: number;
}

/** HostDb (Nutch's `<hostdb>/current`): one HostDatum per host, read in host-name order (code points). */
export interface HostDbReader {
  readonly path: string;
  get(host: string): Promise<HostDatum | null>;
  getMany(hosts: readonly string[]): Promise<Map<string, HostDatum>>;
  scan(opts?: HostScanOptions): AsyncIterable<HostRecord>;
  count(): Promise<number>;
  close(): Promise<void>;
  /** False while the store was never written (no session ever committed). */
  exists(): Promise<boolean>;
}

/** A write session over the HostDb, atomic as CrawlDbUpdate; reads see this session's own writes. */
export interface HostDbUpdate {
  put(records: readonly HostRecord[]): Promise<void>;
  delete(hosts: readonly string[]): Promise<void>;
  get(host: string): Promise<HostDatum | null>;
  getMany(hosts: readonly string[]): Promise<Map<string, HostDatum>>;
  /** Records put while a scan runs may or may not be seen by it, except that a scan never goes back. */
  scan(opts?: HostScanOptions): AsyncIterable<HostRecord>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export interface HostDb extends HostDbReader {
  /** Takes the HostDb's own writer lock (see the guarantees above) and opens an update session. */
  beginUpdate(opts?: { force?: boolean }): Promise<HostDbUpdate>;
}

/** Segment parts, named as Nutch's, and the record type each holds. */
export interface SegmentPartTypes {
  crawl_generate: CrawlDatum;
  crawl_fetch: CrawlDatum;
  content: Content;
  parse_data: ParseData;
  parse_text: ParseText;
  crawl_parse: CrawlDatum;
}

export type SegmentPartName = keyof SegmentPartTypes;
export const SEGMENT_PARTS: readonly SegmentPartName[] = ['crawl_generate', 'crawl_fetch', 'content', 'parse_data', 'parse_text', 'crawl_parse'];

/**
 * Appends records to one partition of one part (Nutch's `<segment>/<part>/part-0000N`). append()
 * commits a batch durably; finish() marks the partition complete, and the part is complete once all
 * its partitions are finished. Several records may share a URL (crawl_parse holds one per outlink).
 */
export interface SegmentPartWriter<V> {
  append(records: readonly Keyed<V>[]): Promise<void>;
  finish(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A fetch worker's claim on one partition of a segment (DESIGN §5.1): the unit of work, politeness
 * and retry. `attempt` is the fencing token: it grows each time the partition is claimed, and a
 * writer opened with a claim refuses to commit (NUTCH_LEASE_LOST) once another claim superseded it.
 */
export interface PartitionClaim {
  readonly partition: number;
  readonly attempt: number;
  /** Who holds it: host:pid:random, shown by readseg -list. */
  readonly worker: string;
  /**
   * The lease it was claimed for, ms. A fenced write transaction may stand idle no longer than this
   * (PostgreSQL ends it): a worker frozen inside one must not hold the partition's row locks past its lease.
   */
  readonly leaseMs?: number;
}

export type PartitionState = 'pending' | 'running' | 'done' | 'failed';

export interface PartitionStatus {
  partition: number;
  state: PartitionState;
  /** The holder of a running partition, or the last one. */
  worker: string | null;
  attempts: number;
  /** When the lease of a running partition expires (ms since epoch, the database's clock). */
  leaseExpires: number | null;
  /** Why a partition failed. */
  reason?: string;
}

/**
 * The fetch partitions of a segment as a work queue shared by processes on any number of machines.
 * Times are the engine's clock (the database's), never the caller's.
 */
export interface FetchPartitions {
  /**
   * Claims a pending partition, or a running one whose lease expired or whose worker's process is gone
   * from this host (resumed after its last committed batch), for `leaseMs`. A partition claimed `maxAttempts` times without finishing is marked failed
   * instead and reported in `failed`. Returns null when nothing is claimable right now.
   *
   * `held`: the partitions the caller holds now. They are never claimed, even when their lease ran out
   * (the caller's renewal was late): nobody superseded the caller, so it renews its own claim, whose
   * attempt is still the newest (renew() grants an expired lease that no newer claim took). Taking
   * them would supersede the caller's own claim and use an attempt for nothing.
   *
   * A running partition whose lease expired and whose last claim was this `worker`'s (it stopped
   * holding it, a write of it having stood idle too long) is claimed with a new attempt, which does
   * not count against maxAttempts: nobody else took it in between.
   */
  claim(worker: string, opts: { leaseMs: number; maxAttempts: number; held?: readonly number[] }): Promise<{ claim: PartitionClaim | null; failed: PartitionStatus[] }>;
  /** Extends the lease, even one that ran out while no newer claim took the partition; NUTCH_LEASE_LOST when the claim was superseded. */
  renew(claim: PartitionClaim, leaseMs: number): Promise<void>;
  /** Marks the partition done (its fetch output finished); NUTCH_LEASE_LOST when superseded. */
  complete(claim: PartitionClaim): Promise<void>;
  /**
   * Gives the partition back (a polite stop): pending again, the attempt not counted against
   * maxAttempts. The next claim still gets a new attempt number, so the releasing claim stays fenced off.
   */
  release(claim: PartitionClaim): Promise<void>;
  status(): Promise<PartitionStatus[]>;
  /** True when every partition is done or failed. */
  allSettled(): Promise<boolean>;
}

export interface Segment {
  /** yyyyMMddHHmmss, as Nutch's. */
  readonly name: string;
  /** The path the segment was opened or created under (`crawl/segments/<name>`); names it in messages. */
  readonly path: string;
  /** Partition numbers present for a part (part-00000 -> 0). */
  partitions(part: SegmentPartName): Promise<number[]>;
  /**
   * The segment's partition count (generate's -numFetchers): stored with crawl_generate, which every
   * later part follows; 0 while crawl_generate was never written.
   */
  partitionCount(): Promise<number>;
  /** True when every partition of the part is finished (Nutch's `_SUCCESS`). */
  isComplete(part: SegmentPartName): Promise<boolean>;
  /** True when the part was started (complete or not). */
  hasPart(part: SegmentPartName): Promise<boolean>;
  /** Removes a part with all its partitions (parse -force drops the old parse first). */
  dropPart(part: SegmentPartName): Promise<void>;
  /**
   * With `fence`, every append() and finish() commits only while that claim is the partition's
   * current one (checked in the same transaction); otherwise NUTCH_LEASE_LOST and nothing is written.
   */
  openWriter<P extends SegmentPartName>(part: P, partition: number, opts?: { totalPartitions?: number; fence?: PartitionClaim }): Promise<SegmentPartWriter<SegmentPartTypes[P]>>;
  /** The segment's fetch partitions as a shared work queue. */
  fetchPartitions(): FetchPartitions;
  /** Records of a part (all partitions, or one), in insertion order per partition. */
  read<P extends SegmentPartName>(part: P, opts?: { partition?: number; batchSize?: number }): AsyncIterable<Keyed<SegmentPartTypes[P]>>;
  /**
   * Records of a part (all partitions) in URL order (code-point order, as scans); the records of one
   * URL in read() order (partition, then insertion). For merge-joins with a store (updatedb): each
   * engine sorts where it is cheapest (PostgreSQL on the server, the embedded engine in an external
   * sort in the process), memory bounded. A reader that stops early must leave the loop (return())
   * or close the segment.
   */
  readSorted<P extends SegmentPartName>(part: P): AsyncIterable<Keyed<SegmentPartTypes[P]>>;
  /** Which of `urls` a partition of a part already holds (a resumed fetch skips them); asked a batch at a time. */
  storedAmong(part: SegmentPartName, partition: number, urls: readonly string[]): Promise<Set<string>>;
  /** Records in a part (all partitions, or one): the fetcher's progress total. */
  count(part: SegmentPartName, partition?: number): Promise<number>;
  /** Records for one URL in a part (readseg -get, indexchecker). */
  get<P extends SegmentPartName>(part: P, url: string): Promise<SegmentPartTypes[P][]>;
  /**
   * The segment's own metadata: a few string pairs stored with the segment (moved with it by a staged
   * segment's publish()), such as how far the crawl loop got with it. Empty for a segment never given any.
   */
  readMeta(): Promise<Record<string, string>>;
  /** Merges `entries` into the segment's metadata: durable and atomic (all entries or none) when it returns. */
  writeMeta(entries: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

/**
 * A segment written under a temporary name: invisible to listSegments() until publish() renames it
 * to its final name (the "new store visible first" rule of DESIGN §5); discard() removes it.
 */
export interface StagedSegment extends Segment {
  /** The name the segment gets on publish(). */
  readonly finalName: string;
  publish(): Promise<Segment>;
  discard(): Promise<void>;
}

/**
 * The engine: opens the stores named by Nutch's paths (`crawl/crawldb`, `crawl/hostdb`, `crawl/segments/<name>`).
 * The embedded default is SQLite files under those paths; a server engine keeps the stores inside
 * its database under the same names. Chosen by `storage.url` (see open-storage.ts).
 */
export interface StorageEngine {
  readonly name: string;
  openCrawlDb(path: string): Promise<CrawlDb>;
  openLinkDb(path: string): Promise<LinkDb>;
  /** The HostDb under `path` (`crawl/hostdb`); an empty store until updatehostdb first commits. */
  openHostDb(path: string): Promise<HostDb>;
  /** Opens an existing segment; NUTCH_STORAGE_NOT_FOUND when there is none under that path. */
  openSegment(path: string): Promise<Segment>;
  /**
   * Creates `<segmentsDir>/<name>`. The name defaults to now as yyyyMMddHHmmss; creation is atomic
   * in the engine, so processes on any number of machines never get the same name (a taken name
   * moves one second forward, as Nutch's Generator waits a second between segments).
   */
  createSegment(segmentsDir: string, name?: string): Promise<Segment>;
  /** A segment written under a temporary name, invisible to listSegments() until published. */
  createStagedSegment(segmentsDir: string, name?: string): Promise<StagedSegment>;
  /** Removes staged segments a killed generate left behind; returns their names (for the log). */
  discardStaleStagedSegments(segmentsDir: string): Promise<string[]>;
  /** Segment paths under a segments dir, oldest first (staged ones excluded). */
  listSegments(segmentsDir: string): Promise<string[]>;
  /** Releases what the engine holds (connections, cached handles); stores it opened must be closed first. */
  close(): Promise<void>;
}
