/**
 * `nutch clean [-noCommit] <crawldb>`, as Nutch's CleaningJob: deletes gone and duplicate pages
 * from every configured index writer.
 */
import { resolve } from 'node:path';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { NutchError } from '../../../core/errors.js';
import { clean } from '../../../core/crawl/clean/clean.js';
import { createProgressDisplay } from '../progress-display.js';

const usage = 'Usage: nutch clean [-D k=v ...] [-noCommit] <crawldb>';

export const cleanCommand: Command = {
  name: 'clean',
  summary: 'delete gone and duplicate pages from the index',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-noCommit'] }, usage);
    if (args.positional.length !== 1) throw new NutchError('NUTCH_USAGE', usage);
    const ctx = cliContext(io, args.defines);
    try {
      const counters = await clean(ctx, { crawlDb: resolve(io.cwd, args.positional[0]!), noCommit: args.flags.has('-noCommit') }, { signal: io.signal, onProgress: createProgressDisplay(io.stderr as never) });
      io.stdout.write(`CleaningJob: deleted a total of ${counters['Deleted documents'] ?? 0} documents\n`);
      return io.signal.aborted ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
