/**
 * QueueFeeder: reads crawl_generate partition by partition into the FetchItemQueues, keeping at most
 * `capacity` items queued (fetcher.queue.depth.multiplier × threads), as Nutch's QueueFeeder. URLs a
 * killed run already stored in crawl_fetch are skipped, so a resumed fetch carries on: the segment is
 * asked a batch at a time, so memory never grows with the partition.
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

export class QueueFeeder {
  readonly stats: FeederStats = { fed: 0, skippedStored: 0, malformed: 0 };
  done = false;
  private stopped = false;

  constructor(
    private readonly segment: Segment,
    private readonly queues: FetchItemQueues,
    private readonly capacity: number,
    private readonly log: Logger,
    /** True on a resumed fetch: crawl_generate batches are checked against what is stored. */
    private readonly resumed: boolean,
    /** URLs of a partition whose content a killed run stored although their crawl_fetch record was not. */
    private readonly onContentStored: (partition: number, url: string) => void,
    /** Called for every URL a -topN-free fetch skips or cannot queue, to keep counters honest. */
    private readonly onSkip: (url: string, reason: string) => void,
  ) {}

  /** Stops feeding (time limit, throughput threshold, abort). */
  stop(): void {
    this.stopped = true;
    this.queues.wake();
  }

  async run(partitions: number[]): Promise<void> {
    try {
      for (const partition of partitions) {
        let batch: Keyed<CrawlDatum>[] = [];
        for await (const record of this.segment.read('crawl_generate', { partition })) {
          batch.push(record);
          if (batch.length < RESUME_CHECK_BATCH) continue;
          if (!(await this.feed(partition, batch))) return;
          batch = [];
        }
        if (batch.length && !(await this.feed(partition, batch))) return;
      }
    } finally {
      this.done = true;
      this.queues.wake();
      this.log.debug(`feeder done: ${this.stats.fed} queued, ${this.stats.skippedStored} already stored`);
    }
  }

  /** Queues one batch of crawl_generate; false once stopped. */
  private async feed(partition: number, batch: Keyed<CrawlDatum>[]): Promise<boolean> {
    let fetched = new Set<string>();
    if (this.resumed) {
      const urls = batch.map((r) => r.url);
      fetched = await this.segment.storedAmong('crawl_fetch', partition, urls);
      const pending = urls.filter((u) => !fetched.has(u));
      for (const url of await this.segment.storedAmong('content', partition, pending)) this.onContentStored(partition, url);
    }
    for (const { url, value } of batch) {
      if (this.stopped) return false;
      if (fetched.has(url)) {
        this.stats.skippedStored++;
        continue;
      }
      const item = await createFetchItem(url, value, this.queues.mode, partition, 0, this.queues.ipCache);
      if (!item) {
        this.stats.malformed++;
        this.onSkip(url, 'malformed URL in crawl_generate');
        continue;
      }
      while (this.queues.totalSize >= this.capacity && !this.stopped) await this.queues.waitForSpace();
      if (this.stopped) return false;
      this.queues.add(item);
      this.stats.fed++;
    }
    return true;
  }
}
