/**
 * `nutch crawl [-i|--index] [-D k=v ...] [-w|--wait <time>] [-s <seed_dir>] <crawl_dir> <num_rounds>`,
 * with bin/crawl's options; -1 rounds = until nothing is left to generate or a .STOP file appears.
 * Ends with a summary (crawl-summary.ts): what each round did, the CrawlDb as readdb -stats counts it,
 * time per stage, and after a stop where it stopped.
 */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { parseDuration } from '../../../core/config/property-types.js';
import { crawl, CRAWL_DEFAULTS } from '../../../core/crawl/crawl/crawl.js';
import { defaultStages } from '../../../core/crawl/stages.js';
import { collectWhenGrown, exposeGc } from '../../../core/crawl/crawl/collect-garbage.js';
import { intOption, parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { createProgressDisplay } from '../progress-display.js';
import { formatSummary, RoundRecorder } from '../crawl-summary.js';

const usage = `Usage: nutch crawl [options] <crawl_dir> <num_rounds>
  -i|--index                 index each round's segment (embedded index unless index-writers.json says otherwise)
  -D <property>=<value>      set a property (repeatable)
  -w|--wait <NUMBER[s|m|h|d]> when nothing is left to generate, wait and retry instead of stopping
  -s <seed_dir>              inject the seeds in this directory (or file) first
  -sm <sitemap_dir>          read the sitemaps listed in this directory (or file: sitemap URLs or host names) into the CrawlDb before round 1
  --num-fetchers <n>         fetch lists per segment (default ${CRAWL_DEFAULTS.numFetchers})
  --num-threads <n>          fetcher threads (default fetcher.threads.fetch)
  --size-fetchlist <n>       URLs per round (default ${CRAWL_DEFAULTS.sizeFetchlist})
  --time-limit-fetch <mins>  fetch time limit per round (default ${CRAWL_DEFAULTS.timeLimitFetch})
  --dedup-group <none|host|domain>  dedup grouping (default none)
  --hostdbupdate             update <crawl_dir>/hostdb from the CrawlDb at the start of each round (nutch updatehostdb)
  --hostdbgenerate           generate with -hostdb <crawl_dir>/hostdb (generate.max.count.expr, generate.fetch.delay.expr)
  --sitemaps-from-hostdb <never|always|once>  read the sitemaps of the HostDb's hosts before generate (default never)
  --num-tasks <n>            accepted for bin/crawl compatibility; ignored (Hadoop reduce tasks; nutch-ts runs in one process)
  -h|--help                  print this help
  <num_rounds>               rounds to run; -1 = until nothing to generate or <crawl_dir>/.STOP exists`;

export const crawlCommand: Command = {
  name: 'crawl',
  summary: 'run the whole crawl cycle for a number of rounds (bin/crawl)',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, {
      flags: ['-i', '--index', '--hostdbupdate', '--hostdbgenerate'],
      values: ['-s', '-sm', '--sitemaps-from-hostdb', '-w', '--wait', '--num-fetchers', '--num-slaves', '--num-threads', '--size-fetchlist', '--time-limit-fetch', '--dedup-group', '--num-tasks'],
    }, usage);
    const [crawlDir, roundsArg] = args.positional;
    if (!crawlDir || roundsArg === undefined || args.positional.length > 2) throw new NutchError('NUTCH_USAGE', usage);
    const rounds = Number(roundsArg);
    if (!Number.isInteger(rounds) || rounds === 0 || rounds < -1) throw new NutchError('NUTCH_USAGE', `<num_rounds> must be a positive integer or -1, got ${JSON.stringify(roundsArg)}.\n${usage}`);
    const waitArg = args.values.get('-w') ?? args.values.get('--wait');
    const waitMs = waitArg === undefined ? undefined : parseDuration(/^\d+$/.test(waitArg) ? `${waitArg}s` : waitArg);
    if (waitArg !== undefined && waitMs === undefined) throw new NutchError('NUTCH_USAGE', `--wait expects NUMBER[s|m|h|d], got ${JSON.stringify(waitArg)}.\n${usage}`);
    const group = args.values.get('--dedup-group');
    if (group !== undefined && !['none', 'host', 'domain'].includes(group)) throw new NutchError('NUTCH_USAGE', `--dedup-group must be none, host or domain.\n${usage}`);

    const sitemapsFromHostDb = args.values.get('--sitemaps-from-hostdb');
    if (sitemapsFromHostDb !== undefined && !['never', 'always', 'once'].includes(sitemapsFromHostDb)) {
      throw new NutchError('NUTCH_USAGE', `--sitemaps-from-hostdb must be never, always or once, got ${JSON.stringify(sitemapsFromHostDb)}.\n${usage}`);
    }
    const numTasks = args.values.has('--num-tasks') ? intOption(args, '--num-tasks', 0, usage) : undefined;
    if (numTasks !== undefined && numTasks < 1) throw new NutchError('NUTCH_USAGE', `--num-tasks must be a positive integer, got ${numTasks}.\n${usage}`);

    const ctx = cliContext(io, args.defines);
    try {
      // bin/crawl passes it to Hadoop as mapreduce.job.reduces; there is no Hadoop job to split here
      if (numTasks !== undefined) ctx.log.warn(`crawl: --num-tasks ${numTasks} ignored: it sets the number of Hadoop reduce tasks, and nutch-ts runs every stage in this one process without Hadoop`);
      const display = createProgressDisplay(io.stderr as never);
      const recorder = new RoundRecorder();
      const started = Date.now();
      const summary = await crawl(ctx, defaultStages, {
        crawlDir: resolve(io.cwd, crawlDir),
        seedDir: args.values.has('-s') ? resolve(io.cwd, args.values.get('-s')!) : undefined,
        sitemapDir: args.values.has('-sm') ? resolve(io.cwd, args.values.get('-sm')!) : undefined,
        rounds,
        index: args.flags.has('-i') || args.flags.has('--index'),
        numFetchers: intOption(args, '--num-fetchers', intOption(args, '--num-slaves', CRAWL_DEFAULTS.numFetchers, usage), usage),
        numThreads: args.values.has('--num-threads') ? intOption(args, '--num-threads', 0, usage) : undefined,
        sizeFetchlist: intOption(args, '--size-fetchlist', CRAWL_DEFAULTS.sizeFetchlist, usage),
        timeLimitFetch: intOption(args, '--time-limit-fetch', CRAWL_DEFAULTS.timeLimitFetch, usage),
        dedupGroup: group as 'none' | 'host' | 'domain' | undefined,
        waitMs,
        hostDbUpdate: args.flags.has('--hostdbupdate'),
        hostDbGenerate: args.flags.has('--hostdbgenerate'),
        sitemapsFromHostDb: sitemapsFromHostDb as 'never' | 'always' | 'once' | undefined,
      }, { signal: io.signal, onProgress: (e) => { display(e); recorder.onProgress(e); }, collectGarbage: collectWhenGrown(exposeGc()) });
      io.stdout.write(formatSummary(summary, Date.now() - started, recorder.list(), `${crawlDir.replace(/\/+$/, '')}/crawldb`));
      if (io.signal.aborted) return ExitCode.INTERRUPTED;
      return ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
