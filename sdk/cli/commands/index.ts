/**
 * `nutch index <crawldb> [-linkdb <linkdb>] (<segment> ... | -dir <segments>) [-deleteGone]
 * [-noCommit] [-filter] [-normalize] [-addBinaryContent]`, as Nutch's IndexingJob: sends the
 * segments' documents to every writer of index-writers.json (the embedded index `<crawl>/index` by
 * default) and prints Nutch's IndexerStatus counters.
 */
import { resolve } from 'node:path';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { NutchError } from '../../../core/errors.js';
import { index } from '../../../core/crawl/index/index.js';
import { createProgressDisplay } from '../progress-display.js';

const usage = 'Usage: nutch index [-D k=v ...] <crawldb> [-linkdb <linkdb>] (<segment> ... | -dir <segments>) [-deleteGone] [-noCommit] [-filter] [-normalize] [-addBinaryContent]';

export const indexCommand: Command = {
  name: 'index',
  summary: 'send the documents of segments to the configured index writers',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-deleteGone', '-noCommit', '-filter', '-normalize', '-addBinaryContent'], values: ['-linkdb'], multi: ['-dir'] }, usage);
    const [crawlDb, ...segmentArgs] = args.positional;
    if (!crawlDb || (segmentArgs.length === 0 && !args.multi.has('-dir'))) throw new NutchError('NUTCH_USAGE', usage);
    const ctx = cliContext(io, args.defines);
    try {
      const segments = segmentArgs.map((s) => resolve(io.cwd, s));
      for (const dir of args.multi.get('-dir') ?? []) segments.push(...(await ctx.storage.listSegments(resolve(io.cwd, dir))));
      if (segments.length === 0) {
        io.stderr.write('Indexer: no segments to index.\n');
        return ExitCode.NOTHING_TO_DO;
      }
      const started = Date.now();
      io.stderr.write(`Indexer: starting at ${new Date(started).toISOString()}\n`);
      const counters = await index(ctx, {
        crawlDb: resolve(io.cwd, crawlDb),
        linkDb: args.values.has('-linkdb') ? resolve(io.cwd, args.values.get('-linkdb')!) : undefined,
        segments,
        deleteGone: args.flags.has('-deleteGone'),
        noCommit: args.flags.has('-noCommit'),
        filter: args.flags.has('-filter'),
        normalize: args.flags.has('-normalize'),
        addBinaryContent: args.flags.has('-addBinaryContent'),
      }, { signal: io.signal, onProgress: createProgressDisplay(io.stderr as never) });
      io.stdout.write('Indexer: number of documents indexed, deleted, or skipped:\n');
      for (const [name, n] of Object.entries(counters).sort(([a], [b]) => a.localeCompare(b))) io.stdout.write(`Indexer: ${String(n).padStart(6)}  ${name}\n`);
      io.stderr.write(`Indexer: finished at ${new Date().toISOString()}, elapsed: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      return io.signal.aborted ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
