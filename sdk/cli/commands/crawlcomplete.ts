/** `nutch crawlcomplete -inputDirs <dirs> -outputDir <dir> -mode host|domain [-numReducers n]`, as Nutch's CrawlCompletionStats. */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { crawlCompletion } from '../../../core/crawl/crawldb-stats/crawl-completion.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { checkReducers, crawlDbList, reportStats } from './crawldb-stats-output.js';

const usage = `Usage: nutch crawlcomplete -inputDirs <inputDirs> -outputDir <outputDir> -mode <host|domain> [-numReducers <n>]
 -inputDirs <inputDirs>     Comma separated list of crawldb directories (e.g., "./crawl1/crawldb,./crawl2/crawldb")
 -outputDir <outputDir>     Output directory where results should be dumped (part-r-00000: <count>TAB<host> FETCHED|UNFETCHED)
 -mode <mode>               Set statistics gathering mode (by 'host' or by 'domain')
 -numReducers <n>           accepted for compatibility; one file is written`;

export const crawlcompleteCommand: Command = {
  name: 'crawlcomplete',
  summary: 'calculate crawl completion stats from crawldb',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-help'], values: ['-inputDirs', '-outputDir', '-mode', '-numReducers'] }, usage);
    const inputs = args.values.get('-inputDirs');
    const outDir = args.values.get('-outputDir');
    const mode = args.values.get('-mode');
    if (args.flags.has('-help') || !inputs || !outDir || !mode || args.positional.length) throw new NutchError('NUTCH_USAGE', usage);
    if (mode !== 'host' && mode !== 'domain') throw new NutchError('NUTCH_USAGE', `Unknown mode ${JSON.stringify(mode)}: use host or domain.\n${usage}`);
    checkReducers(args.values.get('-numReducers'), usage);
    const ctx = cliContext(io, args.defines);
    try {
      const out = resolve(io.cwd, outDir);
      const { counters, counts } = await crawlCompletion(ctx, { crawlDbs: crawlDbList(io, inputs, usage), outDir: out, mode }, { signal: io.signal });
      reportStats(io, 'CrawlCompletionStats', out, counters, counts.size);
      return counters.stopped ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
