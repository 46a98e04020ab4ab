/** `nutch protocolstats <inputDirs> <outDir> [numOfReducers]`, as Nutch's ProtocolStatusStatistics. */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { protocolStats } from '../../../core/crawl/crawldb-stats/protocol-stats.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { checkReducers, crawlDbList, reportStats } from './crawldb-stats-output.js';

const usage = `Usage: nutch protocolstats <inputDirs> <outDir> [numOfReducers]
	inputDirs	Comma separated list of crawldb input directories
			E.g.: crawl/crawldb/
	outDir		Output directory where results should be dumped (part-r-00000: <count>TAB<HTTP code or UNFETCHED>)
	[numOfReducers]	accepted for compatibility; one file is written`;

export const protocolstatsCommand: Command = {
  name: 'protocolstats',
  summary: 'calculate protocol status code stats from crawldb',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, {}, usage);
    const [inputs, outDir, reducers, ...extra] = args.positional;
    if (!inputs || !outDir || extra.length) throw new NutchError('NUTCH_USAGE', usage);
    checkReducers(reducers, usage);
    const ctx = cliContext(io, args.defines);
    try {
      const out = resolve(io.cwd, outDir);
      const { counters, counts } = await protocolStats(ctx, { crawlDbs: crawlDbList(io, inputs, usage), outDir: out }, { signal: io.signal });
      reportStats(io, 'ProtocolStatistics', out, counters, counts.size);
      return counters.stopped ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
