/** `nutch domainstats <inputDirs> <outDir> host|domain|suffix|tld [numOfReducers]`, as Nutch's DomainStatistics. */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { DOMAIN_STATS_MODES, domainStats, type DomainStatsMode } from '../../../core/crawl/crawldb-stats/domain-stats.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { checkReducers, crawlDbList, reportStats } from './crawldb-stats-output.js';

const usage = `Usage: nutch domainstats <inputDirs> <outDir> <host|domain|suffix|tld> [numOfReducers]
	inputDirs	comma separated list of crawldb input directories, e.g. crawl/crawldb/
	outDir		output directory where the counts of fetched URLs are written (part-r-00000: <count>TAB<key>)
	mode		host, domain, suffix (public suffix) or tld
	numOfReducers	accepted for compatibility; one file is written`;

export const domainstatsCommand: Command = {
  name: 'domainstats',
  summary: 'calculate domain statistics from crawldb',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, {}, usage);
    const [inputs, outDir, mode, reducers, ...extra] = args.positional;
    if (!inputs || !outDir || !mode || extra.length) throw new NutchError('NUTCH_USAGE', usage);
    if (!DOMAIN_STATS_MODES.includes(mode as DomainStatsMode)) throw new NutchError('NUTCH_USAGE', `Unknown mode ${JSON.stringify(mode)}: use host, domain, suffix or tld.\n${usage}`);
    checkReducers(reducers, usage);
    const ctx = cliContext(io, args.defines);
    try {
      const out = resolve(io.cwd, outDir);
      const { counters, counts } = await domainStats(ctx, { crawlDbs: crawlDbList(io, inputs, usage), outDir: out, mode: mode as DomainStatsMode }, { signal: io.signal });
      reportStats(io, 'DomainStatistics', out, counters, counts.size);
      return counters.stopped ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
