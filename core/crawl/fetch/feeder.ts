/**
 * QueueFeeder: reads crawl_generate into the FetchItemQueues, one claimed partition after another,
 * keeping at most `capacity` items queued (fetcher.queue.depth.multiplier × threads), as Nutch's
 * QueueFeeder. The next partition is claimed only when the current one is fed and its hosts no
 * longer keep every thread busy, so several workers on one segment share its partitions. URLs a killed run already stored in crawl_fetch are skipped,
 * so a resumed fetch carries on: the segment is asked a batch at a time, so memory never grows with
 * the partition.
 */
import type { Keyed, Segment } from '../../storage/interfaces.js';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { Logger } from '../../log.js';
import type { FetchItemQueues } from './fetch-item-queues.js';
import { createFetchItem } from './fetch-item.js';

/** crawl_generate records per "already stored?" question on a resumed fetch. */
const RESUME_CHECK_BATCH = 500;

export interface FeederStats {
  fed: number;
  skippedStored: number;
  malformed: number;
}

/** Where the feeder's partitions come from and where what it learns goes (the fetcher). */
export interface FeederSource {
  /**
   * Claims the next partition; null when there is none left for this worker. `resumed`: the partition
   * holds output of an earlier run or another worker, so each batch is checked against what is stored.
   */
  next(): Promise<{ partition: number; resumed: boolean } | null>;
  /** Every URL of the partition was queued (or skipped). */
  fed(partition: number): void;
  /** The partition's claim was lost: stop feeding it. */
  isLost(partition: number): boolean;
  /** A killed run stored this URL's content but not its crawl_fetch record. */
  contentStored(partition: number, url: string): void;
  /** A URL that is not queued (malformed, or dropped after a time or throughput limit). */
  skip(url: string, reason: string): void;
  /** True after a time or throughput limit: the rest of each partition is skipped, not fetched. */
  readonly dropping: boolean;
}

export class QueueFeeder {
  readonly stats: FeederStats = { fed: 0, skippedStored: 0, malformed: 0 };
  done = false;
  private stopped = false;

  constructor(
    private readonly segment: Segment,
    private readonly queues: FetchItemQueues,
    private readonly capacity: number,
    /** Fetch threads: with this many hosts busy, no further partition is claimed yet. */
    private readonly threads: number,
    private readonly log: Logger,
    private readonly source: FeederSource,
  ) {}

  /** Stops feeding (abort). */
  stop(): void {
    this.stopped = true;
    this.queues.wake();
  }

  async run(): Promise<void> {
    try {
      for (let first = true; ; first = false) {
        while (!first && !this.stopped && this.queues.busyQueueCount() >= this.threads) await this.queues.waitForSpace();
        if (this.stopped) return;
        const claimed = await this.source.next();
        if (claimed === null || this.stopped) return;
        const { partition, resumed } = claimed;
        let batch: Keyed<CrawlDatum>[] = [];
        let complete = true;
        for await (const record of this.segment.read('crawl_generate', { partition })) {
          batch.push(record);
          if (batch.length < RESUME_CHECK_BATCH) continue;
          complete = await this.feed(partition, batch, resumed);
          batch = [];
          if (!complete) break;
        }
        if (complete && batch.length) complete = await this.feed(partition, batch, resumed);
        if (!complete && this.stopped) return;
        this.source.fed(partition);
      }
    } finally {
      this.done = true;
      this.queues.wake();
      this.log.debug(`feeder done: ${this.stats.fed} queued, ${this.stats.skippedStored} already stored`);
    }
  }

  /** Queues one batch of crawl_generate; false once stopped or the partition was lost. */
  private async feed(partition: number, batch: Keyed<CrawlDatum>[], resumed: boolean): Promise<boolean> {
    let fetched = new Set<string>();
    if (resumed) {
      const urls = batch.map((r) => r.url);
      fetched = await this.segment.storedAmong('crawl_fetch', partition, urls);
      const pending = urls.filter((u) => !fetched.has(u));
      for (const url of await this.segment.storedAmong('content', partition, pending)) this.source.contentStored(partition, url);
    }
    for (const { url, value } of batch) {
      if (this.stopped || this.source.isLost(partition)) return false;
      if (fetched.has(url)) {
        this.stats.skippedStored++;
        continue;
      }
      if (this.source.dropping) {
        this.source.skip(url, 'fetch limit reached');
        continue;
      }
      const item = await createFetchItem(url, value, this.queues.mode, partition, 0, this.queues.ipCache);
      if (!item) {
        this.stats.malformed++;
        this.source.skip(url, 'malformed URL in crawl_generate');
        continue;
      }
      while (this.queues.totalSize >= this.capacity && !this.stopped && !this.source.dropping) await this.queues.waitForSpace();
      if (this.stopped || this.source.isLost(partition)) return false;
      if (this.source.dropping) {
        this.source.skip(url, 'fetch limit reached');
        continue;
      }
      this.queues.add(item);
      this.stats.fed++;
    }
    return true;
  }
}
