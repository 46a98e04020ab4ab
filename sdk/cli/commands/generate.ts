/**
 * `nutch generate <crawldb> <segments_dir> [-force] [-topN N] [-numFetchers numFetchers] [-adddays numDays]
 * [-noFilter] [-noNorm] [-maxNumSegments num] [-hostdb <hostdb>]`, as Nutch's Generator. Exit 1 when nothing was
 * selected, saying why (bin/crawl stops its loop on it).
 */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { generateSegments } from '../../../core/crawl/generate/generate.js';
import { describeNoSelection } from '../../../core/crawl/generate/no-selection-reason.js';
import { intOption, parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { createProgressDisplay } from '../progress-display.js';

const usage = `Usage: nutch generate <crawldb> <segments_dir> [-force] [-topN N] [-numFetchers numFetchers] [-adddays <numDays>] [-noFilter] [-noNorm] [-maxNumSegments <num>] [-hostdb <hostdb>]
  <crawldb>          path to the CrawlDb
  <segments_dir>     directory the new segment(s) are created in (yyyyMMddHHmmss)
  -force             generate even if the CrawlDb is locked
  -topN N            select at most N URLs per segment (best scores first)
  -numFetchers N     split each fetch list into N partitions (default 1)
  -adddays N         add N days to the current time when checking what is due
  -noFilter          do not apply the URL filters
  -noNorm            do not normalise URLs (host counting, partitioning)
  -maxNumSegments N  fill up to N segments when generate.max.count overflows (default 1)
  -hostdb <hostdb>   per-host limits from the HostDb: generate.max.count.expr, generate.fetch.delay.expr (docs/hostdb.md)
  -D k=v             set a property (generate.max.count, generate.count.mode, partition.url.mode, ...)`;

export const generateCommand: Command = {
  name: 'generate',
  summary: 'generate new segments to fetch from crawl db',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-force', '-noFilter', '-noNorm'], values: ['-topN', '-numFetchers', '-adddays', '-maxNumSegments', '-hostdb'] }, usage);
    const [crawlDb, segmentsDir] = args.positional;
    if (!crawlDb || !segmentsDir || args.positional.length > 2) throw new NutchError('NUTCH_USAGE', usage);
    const positive = (name: string, fallback: number) => {
      const n = intOption(args, name, fallback, usage);
      if (n < 1) throw new NutchError('NUTCH_USAGE', `Option ${name} must be at least 1, got ${n}.\n${usage}`);
      return n;
    };
    const ctx = cliContext(io, args.defines);
    try {
      const { counters, segments } = await generateSegments(ctx, {
        crawlDb: resolve(io.cwd, crawlDb),
        segmentsDir: resolve(io.cwd, segmentsDir),
        topN: args.values.has('-topN') ? positive('-topN', 1) : undefined,
        numFetchers: positive('-numFetchers', 1),
        maxNumSegments: positive('-maxNumSegments', 1),
        addDays: intOption(args, '-adddays', 0, usage),
        noFilter: args.flags.has('-noFilter'),
        noNorm: args.flags.has('-noNorm'),
        force: args.flags.has('-force'),
        hostDb: args.values.has('-hostdb') ? resolve(io.cwd, args.values.get('-hostdb')!) : undefined,
      }, { signal: io.signal, onProgress: createProgressDisplay(io.stderr as never) });
      if (io.signal.aborted) return ExitCode.INTERRUPTED;
      const why = describeNoSelection(counters);
      if (why !== null) {
        io.stderr.write(`Generator: 0 records selected for fetching, exiting ...: ${why}\n`);
        return ExitCode.NOTHING_TO_DO;
      }
      for (const s of segments) io.stdout.write(`Generator: segment: ${s}\n`);
      io.stdout.write(`Generator: ${counters.selected} URLs selected in ${segments.length} segment(s)\n`);
      return ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
