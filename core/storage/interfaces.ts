/**
 * The storage contracts stages code against (DESIGN §5). Asynchronous (Promises, AsyncIterables,
 * batched writes) although the embedded engine is synchronous underneath, so a network engine
 * (PostgreSQL) fits unchanged. Memory stays bounded by batch sizes, never by database size.
 * Stage logic never touches an engine directly.
 */
import type { CrawlDatum } from '../model/crawl-datum.js';
import type { Content } from '../model/content.js';
import type { ParseData, ParseText } from '../model/parse.js';
import type { Inlinks } from '../model/inlinks.js';

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
  /** False while the store was never written (optional: engines that can tell). */
  exists?(): Promise<boolean>;
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
  scan(opts?: ScanOptions): AsyncIterable<Keyed<CrawlDatum>>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export interface CrawlDb extends CrawlDbReader {
  /** Takes the writer lock (`.locked`, Nutch's) and opens an update session. */
  beginUpdate(opts?: { force?: boolean }): Promise<CrawlDbUpdate>;
}

/** LinkDb: the Inlinks of each URL. */
export interface LinkDbReader {
  readonly path: string;
  get(url: string): Promise<Inlinks | null>;
  scan(opts?: ScanOptions): AsyncIterable<Keyed<Inlinks>>;
  count(): Promise<number>;
  close(): Promise<void>;
  exists?(): Promise<boolean>;
  getMany?(urls: readonly string[]): Promise<Map<string, Inlinks>>;
}

export interface LinkDbUpdate {
  put(records: readonly Keyed<Inlinks>[]): Promise<void>;
  get(url: string): Promise<Inlinks | null>;
  /** Optional extras (the embedded engine has them): reads see this session's own writes. */
  getMany?(urls: readonly string[]): Promise<Map<string, Inlinks>>;
  scan?(opts?: ScanOptions): AsyncIterable<Keyed<Inlinks>>;
  delete?(urls: readonly string[]): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export interface LinkDb extends LinkDbReader {
  beginUpdate(opts?: { force?: boolean }): Promise<LinkDbUpdate>;
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
 * Appends records to one partition of one part (`<segment>/<part>/part-0000N`). append() commits a
 * batch durably; finish() marks the partition complete, and the part gets `_SUCCESS` once all its
 * partitions are finished. Several records may share a URL (crawl_parse holds one per outlink).
 */
export interface SegmentPartWriter<V> {
  append(records: readonly Keyed<V>[]): Promise<void>;
  finish(): Promise<void>;
  close(): Promise<void>;
}

export interface Segment {
  /** yyyyMMddHHmmss, as Nutch's. */
  readonly name: string;
  readonly path: string;
  /** Partition numbers present for a part (part-00000 -> 0). */
  partitions(part: SegmentPartName): Promise<number[]>;
  /** True when the part's `_SUCCESS` marker exists. */
  isComplete(part: SegmentPartName): Promise<boolean>;
  /** True when the part directory exists (complete or not). */
  hasPart(part: SegmentPartName): Promise<boolean>;
  openWriter<P extends SegmentPartName>(part: P, partition: number, opts?: { totalPartitions?: number }): Promise<SegmentPartWriter<SegmentPartTypes[P]>>;
  /** Records of a part (all partitions, or one), in insertion order per partition. */
  read<P extends SegmentPartName>(part: P, opts?: { partition?: number; batchSize?: number }): AsyncIterable<Keyed<SegmentPartTypes[P]>>;
  /** URLs already stored in a partition of a part (a resumed fetch skips them). */
  storedUrls(part: SegmentPartName, partition: number): Promise<Set<string>>;
  /** Records for one URL in a part (readseg -get, indexchecker). */
  get<P extends SegmentPartName>(part: P, url: string): Promise<SegmentPartTypes[P][]>;
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

/** The engine: opens the stores of a crawl directory. The embedded default is SQLite. */
export interface StorageEngine {
  readonly name: string;
  openCrawlDb(path: string): Promise<CrawlDb>;
  openLinkDb(path: string): Promise<LinkDb>;
  /** Opens an existing segment directory. */
  openSegment(path: string): Promise<Segment>;
  /** Creates `<segmentsDir>/<name>`; the name defaults to now as yyyyMMddHHmmss (unique). */
  createSegment(segmentsDir: string, name?: string): Promise<Segment>;
  /** Segment directories under a segments dir, oldest first. */
  listSegments(segmentsDir: string): Promise<string[]>;
  /** Optional: a segment staged under a temporary name (see StagedSegment). */
  createStagedSegment?(segmentsDir: string, name?: string): Promise<StagedSegment>;
}
