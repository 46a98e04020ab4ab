/** `nutch mergedb <output_crawldb> <crawldb1> [<crawldb2> ...] [-normalize] [-filter]`, as Nutch's CrawlDbMerger. */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { mergedb } from '../../../core/crawl/mergedb/mergedb.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { formatCounters } from './updatedb.js';

const usage = `Usage: nutch mergedb <output_crawldb> <crawldb1> [<crawldb2> <crawldb3> ...] [-normalize] [-filter]
	output_crawldb	output CrawlDb (replaced if it exists)
	crawldb1 ...	input CrawlDb-s (single input CrawlDb is ok)
	-normalize	use URLNormalizer on urls in the crawldb(s) (usually not needed)
	-filter	use URLFilters on urls in the crawldb(s)
	-force	take the output's writer lock even if it appears locked (CAUTION advised)`;

export const mergedbCommand: Command = {
  name: 'mergedb',
  summary: 'merge crawldb-s, with optional filtering',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-normalize', '-filter', '-force'] }, usage);
    const [output, ...inputs] = args.positional;
    if (!output || inputs.length === 0) throw new NutchError('NUTCH_USAGE', usage);
    const ctx = cliContext(io, args.defines);
    try {
      const counters = await mergedb(ctx, {
        output: resolve(io.cwd, output), crawlDbs: inputs.map((p) => resolve(io.cwd, p)),
        normalize: args.flags.has('-normalize'), filter: args.flags.has('-filter'), force: args.flags.has('-force'),
      }, { signal: io.signal });
      io.stdout.write(formatCounters('CrawlDbMerger', counters));
      return counters.stopped ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
