/**
 * The parse stage, Nutch's ParseSegment: reads a segment's content part partition by partition,
 * parses each page in the worker pool (a sliding window keeps every worker busy and the output in
 * content order), and appends parse_text, parse_data and crawl_parse to the same partition numbers,
 * committing in storage.batch.size batches. `_SUCCESS` is written only when every partition is done.
 * A segment already parsed (every parse part with `_SUCCESS`) is refused, as Nutch, unless `force`,
 * which replaces it; the parts an unfinished (stopped or killed) parse left are replaced without it.
 * An abort stops reading, lets in-flight parses finish, commits them and leaves the parts incomplete.
 */
import path from 'node:path';
import { NutchError, errorMessage } from '../../errors.js';
import type { NutchContext } from '../context.js';
import { count, type Counters, type StageOptions } from '../progress.js';
import { StageRun } from '../stage-run.js';
import { partitionCountOf } from '../segment-parts.js';
import type { Segment, SegmentPartName } from '../../storage/interfaces.js';
import type { Content } from '../../model/content.js';
import { SegmentParser, type SegmentParseResult } from './segment-parser.js';
import { ParseRecordBuffer, type ParseWriters } from './parse-record-buffer.js';

export interface ParseArgs {
  segment: string;
  force?: boolean;
  /** Skip the outlink normalisers / URL filters (Nutch's -noNormalize / -noFilter). */
  noNormalize?: boolean;
  noFilter?: boolean;
}

const PARSE_PARTS: readonly SegmentPartName[] = ['parse_text', 'parse_data', 'crawl_parse'];

export async function parse(ctx: NutchContext, args: ParseArgs, opts: StageOptions = {}): Promise<Counters> {
  const run = new StageRun(ctx, 'parse', opts);
  const { counters } = run;
  const segmentDir = args.segment;
  run.start({ segment: segmentDir, force: !!args.force });
  const segment = await ctx.storage.openSegment(segmentDir);
  try {
    const already: SegmentPartName[] = [];
    let parsed = true;
    for (const part of PARSE_PARTS) {
      if (await segment.hasPart(part)) already.push(part);
      if (!(await segment.isComplete(part))) parsed = false;
    }
    // The refusal reads the _SUCCESS markers (DESIGN §5): only a finished parse is "already parsed".
    // Parts without them are what a killed or stopped parse left; left alone, every later parse would
    // skip the segment and its unparsed pages would never reach the CrawlDb, so they are replaced.
    if (parsed && !args.force) {
      ctx.log.warn(`Segment ${segmentDir} already parsed (${already.join(', ')} exist); skipped. Use -force to parse it again.`, { code: 'NUTCH_SEGMENT_ALREADY_PARSED', segment: segmentDir });
      run.emit({ type: 'skip', stage: 'parse', reason: 'already parsed', culprit: segmentDir });
      run.count('ParseSegment.alreadyParsed');
      return counters;
    }
    if (already.length && !parsed && !args.force) {
      ctx.log.warn(`Segment ${segmentDir} holds an unfinished parse (${already.join(', ')} without _SUCCESS: a parse was stopped or killed); parsing it again from the start.`, { segment: segmentDir });
      run.count('ParseSegment.unfinishedReplaced');
    }
    const partitions = await segment.partitions('content');
    if (partitions.length === 0) {
      throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `Segment ${segmentDir} has no content to parse (no content part); fetch it first.`, { file: segmentDir });
    }
    if (!(await segment.isComplete('content'))) {
      ctx.log.warn(`Content of segment ${segmentDir} is incomplete (no _SUCCESS: the fetch is running or was stopped); parsing what it holds.`, { segment: segmentDir });
    }
    for (const part of already) await segment.dropPart(part); // -force or unfinished: the old parse goes first, never mixed with the new

    const parser = await SegmentParser.create(ctx, { normalize: !args.noNormalize, filter: !args.noFilter, lendBytes: true });
    const timeoutsBefore = parser.pool.stats.timeouts;
    const total = await partitionCountOf(segment, 'content');
    let done = 0;
    let aborted = false;
    for (const partition of partitions) {
      if (run.stopping) {
        aborted = true;
        break;
      }
      const complete = await parsePartition(ctx, segment, parser, partition, total, counters, opts, () => {
        done++;
        if (done % 100 === 0) run.progress(done);
      });
      if (!complete) aborted = true;
    }
    run.count('ParseSegment.timeouts', parser.pool.stats.timeouts - timeoutsBefore);
    for (const [k, v] of Object.entries(parser.stats)) run.count(`outlinks.${k}`, v);
    if (aborted) ctx.log.warn(`Parse of ${segmentDir} stopped early; what was parsed is stored, the parse parts stay incomplete (no _SUCCESS).`, { segment: segmentDir });
    return counters;
  } finally {
    await segment.close();
    // also when the parse failed: a progress bar and the crawl loop see the stage end
    run.finish(undefined, { ...counters });
  }
}

/** Parses one content partition; false when stopped by the signal before the end. */
async function parsePartition(
  ctx: NutchContext, segment: Segment, parser: SegmentParser, partition: number, total: number,
  counters: Counters, opts: StageOptions, onPage: () => void,
): Promise<boolean> {
  const emit = opts.onProgress ?? (() => {});
  const batchSize = Math.max(1, ctx.conf.getInt('storage.batch.size', 1000));
  const window = parser.pool.size * 2;
  const writers: ParseWriters = {
    text: await segment.openWriter('parse_text', partition, { totalPartitions: total }),
    data: await segment.openWriter('parse_data', partition, { totalPartitions: total }),
    crawl: await segment.openWriter('crawl_parse', partition, { totalPartitions: total }),
  };
  const buffer = new ParseRecordBuffer(batchSize);
  const flush = () => buffer.flushTo(writers);
  const inFlight: { content: Content; bytes: number; started: number; result: Promise<SegmentParseResult | Error> }[] = [];
  const drainOne = async () => {
    const { content, bytes, started, result } = inFlight.shift()!;
    const r = await result;
    onPage();
    if (r instanceof Error) {
      count(counters, 'ParseSegment.errors');
      ctx.log.error(`Parse output of ${content.url.slice(0, 300)} failed: ${errorMessage(r)}`, { url: content.url.slice(0, 300), code: (r as { code?: string }).code });
      emit({ type: 'error', stage: 'parse', url: content.url, code: (r as { code?: string }).code, message: errorMessage(r) });
      return;
    }
    if (r.skipped) {
      count(counters, `ParseSegment.skipped.${r.skipped}`);
      emit({ type: 'skip', stage: 'parse', url: content.url, reason: r.skipped });
      return;
    }
    count(counters, `ParserStatus.${r.status}`);
    if (r.status !== 'success') {
      const status = r.outcome!.result.parses[content.url]?.data.status;
      ctx.log.warn(`Error parsing: ${content.url.slice(0, 300)}: ${status?.args.join(' ') ?? 'failed'}`, { url: content.url.slice(0, 300) });
    }
    emit({ type: 'page', stage: 'parse', url: content.url, status: r.status!, bytes, ms: Date.now() - started });
    if (buffer.add(r.records!)) await flush();
  };
  let complete = true;
  try {
    for await (const { value: content } of segment.read('content', { partition, batchSize })) {
      if (opts.signal?.aborted) {
        complete = false;
        break;
      }
      // the bytes are lent to a parse worker (SegmentParser lendBytes): their length is taken now
      inFlight.push({ content, bytes: content.content.length, started: Date.now(), result: parser.parse(content, segment.name).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err)))) });
      if (inFlight.length >= window) await drainOne();
    }
    while (inFlight.length) await drainOne();
    await flush();
    if (complete) for (const w of [writers.text, writers.data, writers.crawl]) await w.finish();
  } finally {
    for (const w of [writers.text, writers.data, writers.crawl]) await w.close();
  }
  return complete;
}
