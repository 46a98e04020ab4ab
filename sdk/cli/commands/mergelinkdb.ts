/** `nutch mergelinkdb <output_linkdb> <linkdb1> [<linkdb2> ...] [-normalize] [-filter]`, as Nutch's LinkDbMerger. */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { mergelinkdb } from '../../../core/crawl/mergelinkdb/mergelinkdb.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { formatCounters } from './updatedb.js';

const usage = `Usage: nutch mergelinkdb <output_linkdb> <linkdb1> [<linkdb2> <linkdb3> ...] [-normalize] [-filter]
	output_linkdb	output LinkDb (replaced if it exists)
	linkdb1 ...	input LinkDb-s (single input LinkDb is ok)
	-normalize	use URLNormalizer on urls in the linkdb(s) (usually not needed)
	-filter	use URLFilters on urls in the linkdb(s)
	-force	take the output's writer lock even if it appears locked (CAUTION advised)`;

export const mergelinkdbCommand: Command = {
  name: 'mergelinkdb',
  summary: 'merge linkdb-s, with optional filtering',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-normalize', '-filter', '-force'] }, usage);
    const [output, ...inputs] = args.positional;
    if (!output || inputs.length === 0) throw new NutchError('NUTCH_USAGE', usage);
    const ctx = cliContext(io, args.defines);
    try {
      const counters = await mergelinkdb(ctx, {
        output: resolve(io.cwd, output), linkDbs: inputs.map((p) => resolve(io.cwd, p)),
        normalize: args.flags.has('-normalize'), filter: args.flags.has('-filter'), force: args.flags.has('-force'),
      }, { signal: io.signal });
      io.stdout.write(formatCounters('LinkDbMerger', counters));
      return counters.stopped ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
