/**
 * QueueFeeder: reads crawl_generate partition by partition into the FetchItemQueues, keeping at most
 * `capacity` items queued (fetcher.queue.depth.multiplier × threads), as Nutch's QueueFeeder. URLs a
 * killed run already stored in crawl_fetch are skipped, so a resumed fetch carries on.
 */
import type { Segment } from '../../storage/interfaces.js';
import type { Logger } from '../../log.js';
import type { FetchItemQueues } from './fetch-item-queues.js';
import { createFetchItem } from './fetch-item.js';

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
    private readonly stored: Map<number, Set<string>>,
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
        const stored = this.stored.get(partition) ?? new Set<string>();
        for await (const { url, value } of this.segment.read('crawl_generate', { partition })) {
          if (this.stopped) return;
          if (stored.has(url)) {
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
          if (this.stopped) return;
          this.queues.add(item);
          this.stats.fed++;
        }
      }
    } finally {
      this.done = true;
      this.queues.wake();
      this.log.debug(`feeder done: ${this.stats.fed} queued, ${this.stats.skippedStored} already stored`);
    }
  }
}
