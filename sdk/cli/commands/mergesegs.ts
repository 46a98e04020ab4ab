/** `nutch mergesegs <output_dir> (-dir <segments> | <seg1> <seg2> ...) [-filter] [-normalize] [-slice NNNN]`, as Nutch's SegmentMerger. */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { mergesegs } from '../../../core/crawl/mergesegs/mergesegs.js';
import { intOption, parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, writeLine, type Command } from '../command.js';
import { formatCounters, segmentArgs } from './updatedb.js';

const usage = `Usage: nutch mergesegs <output_dir> (-dir <segments> | <seg1> <seg2> ...) [-filter] [-normalize] [-slice NNNN]
	output_dir	name of the parent dir for output segment slice(s)
	-dir segments	parent dir containing several segments
	seg1 seg2 ...	list of segment dirs
	-filter		filter out URL-s prohibited by current URLFilters
	-normalize	normalize URL via current URLNormalizers
	-slice NNNN	create many output segments, each containing NNNN URLs`;

export const mergesegsCommand: Command = {
  name: 'mergesegs',
  summary: 'merge several segments, with optional filtering and slicing',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-filter', '-normalize'], values: ['-slice'], multi: ['-dir'] }, usage);
    const [output, ...segs] = args.positional;
    if (!output) throw new NutchError('NUTCH_USAGE', usage);
    const slice = intOption(args, '-slice', 0, usage);
    if (slice < 0) throw new NutchError('NUTCH_USAGE', `-slice must be a positive number of URLs, got ${slice}.\n${usage}`);
    const ctx = cliContext(io, args.defines);
    try {
      const segments = await segmentArgs(ctx, io, args, segs, usage);
      const { counters, segments: written } = await mergesegs(ctx, {
        output: resolve(io.cwd, output), segments, slice, filter: args.flags.has('-filter'), normalize: args.flags.has('-normalize'),
      }, { signal: io.signal });
      io.stdout.write(formatCounters('SegmentMerger', counters));
      for (const s of written) await writeLine(io.stdout, `Merged segment: ${s}`);
      return counters.stopped ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
