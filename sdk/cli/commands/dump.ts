/**
 * `nutch dump -outputDir <dir> -segment <segments_dir> [-mimetype <type> ...] [-mimeStats] [-flatdir]
 * [-reverseUrlDirs]`, as Nutch's FileDumper. -mimetype takes several values (repeat it or list them after it).
 */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { dumpFiles, formatMimeStats } from '../../../core/crawl/dump/file-dumper.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { formatCounters } from './updatedb.js';

const usage = `Usage: nutch dump [-flatdir] [-h] [-mimeStats] [-mimetype <mimetype>...] [-outputDir <outputDir>] [-reverseUrlDirs] [-segment <segment>]
 -flatdir                  optionally specify that the output directory should only contain files.
 -h,--help                 show this help message
 -mimeStats                only display mimetype stats for the segment(s) instead of dumping file.
 -mimetype <mimetype>      an optional list of mimetypes to dump, excluding all others. Defaults to all.
 -outputDir <outputDir>    output directory (which will be created) to host the raw data
 -reverseUrlDirs           optionally specify to use reverse URL folders for output structure.
 -segment <segment>        the segment(s) to use (a directory of segments, or one segment)`;

export const dumpCommand: Command = {
  name: 'dump',
  summary: 'exports crawled data from segments into files',
  usage,
  async run(argv, io) {
    // -mimetype a b c: values up to the next option, as commons-cli's hasArgs()
    const expanded: string[] = [];
    for (let i = 0; i < argv.length; i++) {
      expanded.push(argv[i]!);
      if (argv[i] === '-mimetype') {
        let j = i + 1;
        const values: string[] = [];
        while (j < argv.length && !argv[j]!.startsWith('-')) values.push(argv[j++]!);
        if (values.length > 1) {
          expanded.push(values[0]!);
          for (const v of values.slice(1)) expanded.push('-mimetype', v);
          i = j - 1;
        }
      }
    }
    const args = parseArgs(expanded, { flags: ['-flatdir', '-mimeStats', '-reverseUrlDirs'], values: ['-outputDir', '-segment'], multi: ['-mimetype'] }, usage);
    const outputDir = args.values.get('-outputDir');
    const segment = args.values.get('-segment');
    if (!segment || (!outputDir && !args.flags.has('-mimeStats')) || args.positional.length) throw new NutchError('NUTCH_USAGE', usage);
    const ctx = cliContext(io, args.defines);
    try {
      const { counters, total, filtered } = await dumpFiles(ctx, {
        outputDir: resolve(io.cwd, outputDir ?? '.'), segmentRoot: resolve(io.cwd, segment), mimeTypes: args.multi.get('-mimetype'),
        flatDir: args.flags.has('-flatdir'), mimeStats: args.flags.has('-mimeStats'), reverseUrlDirs: args.flags.has('-reverseUrlDirs'),
      }, { signal: io.signal });
      if (args.flags.has('-mimeStats')) io.stdout.write(`Dumper File Stats: ${formatMimeStats(total, filtered)}\n`);
      else io.stdout.write(formatCounters('FileDumper', counters));
      return io.signal.aborted ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
