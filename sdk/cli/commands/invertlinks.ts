/** `nutch invertlinks <linkdb> (-dir <segmentsDir> | <seg1> <seg2> ...) [-force] [-noNormalize] [-noFilter]`, as Nutch's LinkDb tool. */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { invertlinks } from '../../../core/crawl/invertlinks/invertlinks.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { formatCounters, segmentArgs } from './updatedb.js';
import { createProgressDisplay } from '../progress-display.js';

const usage = `Usage: nutch invertlinks <linkdb> (-dir <segmentsDir> | <seg1> <seg2> ...) [-force] [-noNormalize] [-noFilter]
  linkdb          output LinkDb to create or update
  -dir segmentsDir  parent directory of several segments, OR
  seg1 seg2 ...   list of segment directories
  -force          force update even if LinkDb appears to be locked (CAUTION advised)
  -noNormalize    don't normalize link URLs
  -noFilter       don't apply URLFilters to link URLs`;

export const invertlinksCommand: Command = {
  name: 'invertlinks',
  summary: 'create a linkdb from parsed segments',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-force', '-noNormalize', '-noFilter'], multi: ['-dir'] }, usage);
    const [linkDb, ...segs] = args.positional;
    if (!linkDb) throw new NutchError('NUTCH_USAGE', usage);
    const ctx = cliContext(io, args.defines);
    try {
      const segments = await segmentArgs(ctx, io, args, segs, usage);
      const counters = await invertlinks(ctx, {
        linkDb: resolve(io.cwd, linkDb), segments,
        force: args.flags.has('-force'), noNormalize: args.flags.has('-noNormalize'), noFilter: args.flags.has('-noFilter'),
      }, { signal: io.signal, onProgress: createProgressDisplay(io.stderr as never) });
      io.stdout.write(formatCounters('LinkDb', counters));
      return counters.stopped ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
