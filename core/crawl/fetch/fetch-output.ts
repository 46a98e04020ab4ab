/**
 * Writes fetch results per claimed partition: content first, then crawl_fetch, each in batches, so a
 * URL present in crawl_fetch always has its content stored (the resume rule). Writers are fenced by
 * the partition's claim: once another worker superseded it, nothing more of it is stored (the
 * partition is dropped here and reported through onLeaseLost). finishPartition() marks a partition
 * complete; the part is complete (`_SUCCESS`) once all of the segment's partitions are.
 */
import type { Segment, SegmentPartWriter, Keyed, PartitionClaim } from '../../storage/interfaces.js';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { Content } from '../../model/content.js';

/** Content bytes held per partition before a flush. */
export const MAX_BATCH_CONTENT_BYTES = 1024 * 1024;

interface PartitionWriters {
  claim: PartitionClaim | undefined;
  fetch: SegmentPartWriter<CrawlDatum>;
  content: SegmentPartWriter<Content> | null;
  fetchBatch: Keyed<CrawlDatum>[];
  contentBatch: Keyed<Content>[];
  contentBytes: number;
  /** URLs whose content a killed run already stored (not written twice); the feeder fills it a batch at a time. */
  storedContent: Set<string>;
  /** Flushes of one partition run one after another. */
  flushing: Promise<void>;
}

export interface FetchOutputHooks {
  /** A batch of the partition was committed (the claim's lease is renewed). */
  onCommitted(partition: number): void;
  /**
   * Before a batch commits: false when the claim was lost (the batch is not written). Asks the database
   * first when the claim's lease ran out by this process's clock.
   */
  beforeCommit(partition: number): Promise<boolean>;
  /** A write was refused because the claim was superseded: true when handled (the partition is dropped). */
  onLeaseLost(partition: number, err: unknown): boolean;
}

export class FetchOutput {
  private readonly writers = new Map<number, PartitionWriters>();
  /** Partitions lost to another worker: their late records are not written. */
  private readonly dropped = new Set<number>();
  droppedRecords = 0;

  constructor(
    private readonly segment: Segment,
    private readonly totalPartitions: number,
    private readonly storeContent: boolean,
    private readonly batchSize: number,
    private readonly hooks: FetchOutputHooks,
  ) {}

  /** Opens the writers of a partition this worker claimed. */
  async open(partition: number, claim?: PartitionClaim): Promise<void> {
    const opts = { totalPartitions: this.totalPartitions, fence: claim };
    this.dropped.delete(partition);
    this.writers.set(partition, {
      claim,
      fetch: await this.segment.openWriter('crawl_fetch', partition, opts),
      content: this.storeContent ? await this.segment.openWriter('content', partition, opts) : null,
      fetchBatch: [],
      contentBatch: [],
      contentBytes: 0,
      storedContent: new Set(),
      flushing: Promise.resolve(),
    });
  }

  /** A resumed fetch found this URL's content stored by the killed run: it is not written again. */
  contentStored(partition: number, url: string): void {
    this.writers.get(partition)?.storedContent.add(url);
  }

  /** Queues one record; flushes the partition's batch when full. Returns when the flush (if any) is durable. */
  async write(partition: number, url: string, datum: CrawlDatum, content: Content | null): Promise<void> {
    const w = this.writers.get(partition);
    if (!w) {
      this.droppedRecords++; // a lost or already finished partition (a redirect that outlived it)
      return;
    }
    if (content && w.content && !w.storedContent.delete(url)) {
      w.contentBatch.push({ url, value: content });
      w.contentBytes += content.content.length;
    }
    w.fetchBatch.push({ url, value: datum });
    // memory stays bounded by bytes too: a batch of 1,000 large pages would hold tens of MB
    if (w.fetchBatch.length >= this.batchSize || w.contentBytes >= MAX_BATCH_CONTENT_BYTES) await this.flush(partition, w);
  }

  private flush(partition: number, w: PartitionWriters): Promise<void> {
    const contentBatch = w.contentBatch;
    const fetchBatch = w.fetchBatch;
    w.contentBatch = [];
    w.fetchBatch = [];
    w.contentBytes = 0;
    if (!contentBatch.length && !fetchBatch.length) return w.flushing;
    // one flush at a time per partition, in order: content before crawl_fetch
    w.flushing = w.flushing.then(async () => {
      if (this.dropped.has(partition)) return;
      try {
        if (!(await this.hooks.beforeCommit(partition)) || this.dropped.has(partition)) {
          this.droppedRecords += fetchBatch.length;
          if (!this.dropped.has(partition)) await this.drop(partition);
          return;
        }
        if (contentBatch.length && w.content) await w.content.append(contentBatch);
        if (fetchBatch.length) await w.fetch.append(fetchBatch);
        this.hooks.onCommitted(partition);
      } catch (err) {
        if (!this.hooks.onLeaseLost(partition, err)) throw err;
        await this.drop(partition);
      }
    });
    return w.flushing;
  }

  /** Stops writing a partition lost to another worker; its writers close unfinished. */
  async drop(partition: number): Promise<void> {
    const w = this.writers.get(partition);
    this.dropped.add(partition);
    this.writers.delete(partition);
    if (!w) return;
    this.droppedRecords += w.fetchBatch.length;
    await w.content?.close();
    await w.fetch.close();
  }

  /** Flushes the partition and, when `complete`, marks it finished; closes its writers. */
  async finishPartition(partition: number, complete: boolean): Promise<void> {
    const w = this.writers.get(partition);
    if (!w) return;
    try {
      await this.flush(partition, w);
      if (complete && !this.dropped.has(partition)) {
        try {
          await w.content?.finish();
          await w.fetch.finish();
        } catch (err) {
          if (!this.hooks.onLeaseLost(partition, err)) throw err;
          this.dropped.add(partition);
        }
      }
    } finally {
      this.writers.delete(partition);
      await w.content?.close();
      await w.fetch.close();
    }
  }

  /** Flushes and closes every partition still open, unfinished (a stopped or failed fetch). */
  async close(): Promise<void> {
    let first: unknown;
    for (const p of [...this.writers.keys()]) {
      try {
        await this.finishPartition(p, false);
      } catch (err) {
        first ??= err;
      }
    }
    if (first) throw first;
  }
}
