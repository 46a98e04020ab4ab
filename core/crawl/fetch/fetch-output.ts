/**
 * Writes fetch results per crawl_generate partition: content first, then crawl_fetch, each in batches,
 * so a URL present in crawl_fetch always has its content stored (the resume rule). finish() marks
 * every partition complete; `_SUCCESS` appears only then.
 */
import type { Segment, SegmentPartWriter, Keyed } from '../../storage/interfaces.js';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { Content } from '../../model/content.js';

/** Content bytes held per partition before a flush. */
export const MAX_BATCH_CONTENT_BYTES = 1024 * 1024;

interface PartitionWriters {
  fetch: SegmentPartWriter<CrawlDatum>;
  content: SegmentPartWriter<Content> | null;
  fetchBatch: Keyed<CrawlDatum>[];
  contentBatch: Keyed<Content>[];
  contentBytes: number;
  /** URLs whose content a killed run already stored (not written twice); the feeder fills it a batch at a time. */
  storedContent: Set<string>;
}

export class FetchOutput {
  private readonly writers = new Map<number, PartitionWriters>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly segment: Segment,
    private readonly partitions: number[],
    private readonly storeContent: boolean,
    private readonly batchSize: number,
  ) {}

  async open(): Promise<void> {
    const total = this.partitions.length ? Math.max(...this.partitions) + 1 : 1;
    for (const p of this.partitions) {
      this.writers.set(p, {
        fetch: await this.segment.openWriter('crawl_fetch', p, { totalPartitions: total }),
        content: this.storeContent ? await this.segment.openWriter('content', p, { totalPartitions: total }) : null,
        fetchBatch: [],
        contentBatch: [],
        contentBytes: 0,
        storedContent: new Set(),
      });
    }
  }

  /** A resumed fetch found this URL's content stored by the killed run: it is not written again. */
  contentStored(partition: number, url: string): void {
    this.writers.get(partition)?.storedContent.add(url);
  }

  /** Queues one record; flushes the partition's batch when full. Returns when the flush (if any) is durable. */
  async write(partition: number, url: string, datum: CrawlDatum, content: Content | null): Promise<void> {
    const w = this.writers.get(partition) ?? this.writers.values().next().value!;
    if (content && w.content && !w.storedContent.delete(url)) {
      w.contentBatch.push({ url, value: content });
      w.contentBytes += content.content.length;
    }
    w.fetchBatch.push({ url, value: datum });
    // memory stays bounded by bytes too: a batch of 1,000 large pages would hold tens of MB
    if (w.fetchBatch.length >= this.batchSize || w.contentBytes >= MAX_BATCH_CONTENT_BYTES) await this.flush(w);
  }

  private flush(w: PartitionWriters): Promise<void> {
    const contentBatch = w.contentBatch;
    const fetchBatch = w.fetchBatch;
    w.contentBatch = [];
    w.fetchBatch = [];
    w.contentBytes = 0;
    // one flush at a time, in order: content before crawl_fetch
    this.flushing = this.flushing.then(async () => {
      if (contentBatch.length && w.content) await w.content.append(contentBatch);
      if (fetchBatch.length) await w.fetch.append(fetchBatch);
    });
    return this.flushing;
  }

  async flushAll(): Promise<void> {
    for (const w of this.writers.values()) await this.flush(w);
    await this.flushing;
  }

  /** Flushes, then (when `complete`) marks every partition finished; closes the writers. */
  async close(complete: boolean): Promise<void> {
    try {
      await this.flushAll();
      if (complete) {
        for (const w of this.writers.values()) {
          await w.content?.finish();
          await w.fetch.finish();
        }
      }
    } finally {
      for (const w of this.writers.values()) {
        await w.content?.close();
        await w.fetch.close();
      }
    }
  }
}
