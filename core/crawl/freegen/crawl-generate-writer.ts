/**
 * freegen's crawl_generate: records placed into -numFetchers partitions of a staged segment by the
 * URLPartitioner (whole hosts or domains per partition, as partition.url.mode says), each partition
 * appended a batch at a time, so memory holds at most a batch per partition.
 */
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { Keyed, SegmentPartWriter, StagedSegment } from '../../storage/interfaces.js';
import type { URLPartitioner } from '../generate/url-partitioner.js';

export class CrawlGenerateWriter {
  private batch: Keyed<CrawlDatum>[] = [];
  private readonly pending: Keyed<CrawlDatum>[][];

  private constructor(private readonly writers: SegmentPartWriter<CrawlDatum>[], private readonly partitioner: URLPartitioner, private readonly batchSize: number) {
    this.pending = writers.map(() => []);
  }

  static async open(staged: StagedSegment, numFetchers: number, partitioner: URLPartitioner, batchSize: number): Promise<CrawlGenerateWriter> {
    const writers: SegmentPartWriter<CrawlDatum>[] = [];
    for (let p = 0; p < numFetchers; p++) writers.push(await staged.openWriter('crawl_generate', p, { totalPartitions: numFetchers }));
    return new CrawlGenerateWriter(writers, partitioner, batchSize);
  }

  async add(record: Keyed<CrawlDatum>): Promise<void> {
    this.batch.push(record);
    if (this.batch.length >= this.batchSize) await this.place();
  }

  /** Writes what is pending and marks every partition complete. */
  async finish(): Promise<void> {
    await this.place();
    for (let p = 0; p < this.writers.length; p++) {
      if (this.pending[p]!.length) await this.writers[p]!.append(this.pending[p]!);
      await this.writers[p]!.finish();
      await this.writers[p]!.close();
    }
  }

  /** The partitioner resolves a batch's hosts at once (partition.url.mode=byIP looks them up). */
  private async place(): Promise<void> {
    await this.partitioner.prepare(this.batch.map((r) => r.url));
    for (const r of this.batch) this.pending[this.partitioner.partition(r.url)]!.push(r);
    this.batch = [];
    for (let p = 0; p < this.writers.length; p++) {
      if (this.pending[p]!.length >= this.batchSize) {
        await this.writers[p]!.append(this.pending[p]!);
        this.pending[p] = [];
      }
    }
  }
}
