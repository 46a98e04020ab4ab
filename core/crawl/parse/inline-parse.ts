/**
 * The fetcher's inline parse (fetcher.parse = true), as Nutch's FetcherThread.output with parsing on:
 * each successfully fetched Content goes through the same SegmentParser as `nutch parse` (worker pool,
 * skip rules, ParseOutputFormat records), and the records are appended to parse_text, parse_data and
 * crawl_parse of the fetch's own partition, in batches (parse-record-buffer.ts). The page's signature is also
 * set on the fetch datum, as Nutch does. The writers of a partition are fenced by the fetch's claim on
 * it; finishPartition() ends one partition as the fetch ends it (the crawl wires it so), and finish()
 * ends what is left (with `complete`, every partition: one process fetched the whole segment).
 *
 *   const inline = await InlineParse.create(ctx);
 *   await fetch(ctx, { segment, parse: inline.parse, onPartitionEnd: inline.finishPartition }, opts);
 *   await inline.close();
 */
import type { NutchContext } from '../context.js';
import { count, type Counters } from '../progress.js';
import { availableParallelism } from 'node:os';
import type { PartitionClaim, Segment } from '../../storage/interfaces.js';
import type { Content } from '../../model/content.js';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import { SegmentParser } from './segment-parser.js';
import { partitionCountOf } from '../segment-parts.js';
import type { ParseOutputOptions } from './parse-output.js';
import { ParseRecordBuffer, type ParseWriters } from './parse-record-buffer.js';

interface PartitionOutput {
  writers: ParseWriters;
  buffer: ParseRecordBuffer;
  /** Appends of one partition run one after another. */
  chain: Promise<void>;
}

export class InlineParse {
  readonly counters: Counters = {};
  private readonly outputs = new Map<string, Promise<PartitionOutput>>();
  /** Segments whose fetch closed them: a parse still in flight for one is dropped, never reopening it. */
  private readonly ended = new Set<string>();
  private readonly batchSize: number;

  private constructor(ctx: NutchContext, private readonly parser: SegmentParser) {
    this.batchSize = Math.max(1, ctx.conf.getInt('storage.batch.size', 1000));
  }

  /** Starts the parse workers and the output chains (plugin start failures surface here, before fetching). */
  static async create(ctx: NutchContext, opts: ParseOutputOptions = {}): Promise<InlineParse> {
    // The main thread is busy fetching (HTTP, queues, outlinks, segment writes): by default one
    // parse worker per core but the first, so the threads that run never outnumber the cores.
    return new InlineParse(ctx, await SegmentParser.create(ctx, { ...opts, workers: Math.max(1, availableParallelism() - 1) }));
  }

  /** The hook the fetcher calls for each successfully fetched page (FetchArgs.parse). */
  readonly parse = async (content: Content, datum: CrawlDatum, info: { segment: Segment; partition: number; claim?: PartitionClaim }): Promise<void> => {
    const r = await this.parser.parse(content, info.segment.name);
    if (r.skipped) {
      count(this.counters, `ParseSegment.skipped.${r.skipped}`);
      return;
    }
    count(this.counters, `ParserStatus.${r.status}`);
    if (r.signature) datum.signature = r.signature;
    if (this.ended.has(info.segment.path)) {
      count(this.counters, 'ParseSegment.skipped.segment_closed');
      return;
    }
    const out = await this.output(info.segment, info.partition, info.claim);
    if (out.buffer.add(r.records!)) await this.flush(out);
  };

  /** The fetch ended a partition: flush it and, when `complete`, finish its parse parts (FetchArgs.onPartitionEnd). */
  readonly finishPartition = async (segment: Segment, partition: number, complete: boolean): Promise<void> => {
    if (complete) await this.output(segment, partition);
    const key = `${segment.path}\0${partition}`;
    const pending = this.outputs.get(key);
    if (!pending) return;
    this.outputs.delete(key);
    await this.end(await pending, complete);
  };

  /** The fetch is closing the segment (FetchArgs.onSegmentEnd): what is still open on it closes unfinished. */
  readonly endSegment = async (segment: Segment): Promise<void> => {
    this.ended.add(segment.path);
    await this.finish(segment, { complete: false });
  };

  /** Closes the partitions still open, unfinished (a stopped fetch); returns the counters. */
  async close(): Promise<Counters> {
    for (const [key, pending] of this.outputs) {
      this.outputs.delete(key);
      await this.end(await pending, false);
    }
    for (const [k, v] of Object.entries(this.parser.stats)) this.counters[`outlinks.${k}`] = v;
    return this.counters;
  }

  private async end(out: PartitionOutput, complete: boolean): Promise<void> {
    try {
      await this.flush(out);
      if (complete) for (const w of [out.writers.text, out.writers.data, out.writers.crawl]) await w.finish();
    } finally {
      for (const w of [out.writers.text, out.writers.data, out.writers.crawl]) await w.close();
    }
  }

  /** Flushes every partition; with `complete`, finishes all of the segment's partitions (`_SUCCESS`). */
  async finish(segment: Segment, opts: { complete: boolean }): Promise<Counters> {
    if (opts.complete) for (const p of await segment.partitions('crawl_generate')) await this.output(segment, p);
    for (const [key, pending] of this.outputs) {
      if (!key.startsWith(`${segment.path}\0`)) continue;
      this.outputs.delete(key);
      await this.end(await pending, opts.complete);
    }
    for (const [k, v] of Object.entries(this.parser.stats)) this.counters[`outlinks.${k}`] = v;
    return this.counters;
  }

  private output(segment: Segment, partition: number, claim?: PartitionClaim): Promise<PartitionOutput> {
    if (this.ended.has(segment.path)) return Promise.reject(new Error(`inline parse: segment ${segment.path} was closed by its fetch`));
    const key = `${segment.path}\0${partition}`;
    let out = this.outputs.get(key);
    if (!out) {
      out = (async () => {
        const o = { totalPartitions: await partitionCountOf(segment), fence: claim };
        const writers: ParseWriters = {
          text: await segment.openWriter('parse_text', partition, o),
          data: await segment.openWriter('parse_data', partition, o),
          crawl: await segment.openWriter('crawl_parse', partition, o),
        };
        return { writers, buffer: new ParseRecordBuffer(this.batchSize), chain: Promise.resolve() };
      })();
      this.outputs.set(key, out);
    }
    return out;
  }

  private flush(out: PartitionOutput): Promise<void> {
    const pending = out.buffer;
    out.buffer = new ParseRecordBuffer(this.batchSize);
    out.chain = out.chain.then(() => pending.flushTo(out.writers));
    return out.chain;
  }
}
