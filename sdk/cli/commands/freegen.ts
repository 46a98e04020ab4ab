/** `nutch freegen <inputDir> <segmentsDir> [-filter] [-normalize] [-numFetchers <n>]`, as Nutch's FreeGenerator. */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { freegen } from '../../../core/crawl/freegen/freegen.js';
import { intOption, parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, writeLine, type Command } from '../command.js';
import { formatCounters } from './updatedb.js';

const usage = `Usage: nutch freegen <inputDir> <segmentsDir> [-filter] [-normalize] [-numFetchers <n>]
	inputDir	input directory containing one or more input files (or one file).
		Each text file contains a list of URLs, one URL per line
	segmentsDir	output directory, where new segment will be created
	-filter	run current URLFilters on input URLs
	-normalize	run current URLNormalizers on input URLs
	-numFetchers <n>	number of generated partitions`;

export const freegenCommand: Command = {
  name: 'freegen',
  summary: 'generate new segments to fetch from text files',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-filter', '-normalize'], values: ['-numFetchers'] }, usage);
    const [inputDir, segmentsDir] = args.positional;
    if (!inputDir || !segmentsDir || args.positional.length > 2) throw new NutchError('NUTCH_USAGE', usage);
    const numFetchers = intOption(args, '-numFetchers', 1, usage);
    if (numFetchers < 1) throw new NutchError('NUTCH_USAGE', `-numFetchers must be at least 1, got ${numFetchers}.\n${usage}`);
    const ctx = cliContext(io, args.defines);
    try {
      const { counters, segment } = await freegen(ctx, {
        inputDir: resolve(io.cwd, inputDir), segmentsDir: resolve(io.cwd, segmentsDir), numFetchers,
        filter: args.flags.has('-filter'), normalize: args.flags.has('-normalize'),
      }, { signal: io.signal });
      io.stdout.write(formatCounters('FreeGenerator', counters));
      if (segment) await writeLine(io.stdout, `Generated segment: ${segment}`);
      if (counters.stopped) return ExitCode.INTERRUPTED;
      return segment ? ExitCode.OK : ExitCode.NOTHING_TO_DO;
    } finally {
      await ctx.close();
    }
  },
};
