/**
 * `nutch parse <segment> [-force] [-noFilter] [-noNormalize]`, as Nutch's ParseSegment: parses the
 * segment's content into parse_text, parse_data and crawl_parse. A segment already parsed is skipped
 * with a warning (exit 1, nothing to do) unless -force. Counters go to stderr when the stage ends.
 */
import { resolve } from 'node:path';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { NutchError } from '../../../core/errors.js';
import { parse } from '../../../core/crawl/parse/parse-segment.js';
import { createProgressDisplay } from '../progress-display.js';

const usage = 'Usage: nutch parse [-D k=v ...] <segment> [-force] [-noFilter] [-noNormalize]';

export const parseCommand: Command = {
  name: 'parse',
  summary: 'parse a segment\'s pages',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-force', '-noFilter', '-noNormalize'] }, usage);
    if (args.positional.length !== 1) throw new NutchError('NUTCH_USAGE', args.positional.length ? `Expected one segment, got ${args.positional.length}.\n${usage}` : usage);
    const ctx = cliContext(io, args.defines);
    try {
      const started = Date.now();
      io.stderr.write(`ParseSegment: starting at ${new Date(started).toISOString()}\nParseSegment: segment: ${args.positional[0]}\n`);
      const counters = await parse(ctx, {
        segment: resolve(io.cwd, args.positional[0]!),
        force: args.flags.has('-force'),
        noFilter: args.flags.has('-noFilter'),
        noNormalize: args.flags.has('-noNormalize'),
      }, { signal: io.signal, onProgress: createProgressDisplay(io.stderr as never) });
      const summary = Object.entries(counters).filter(([, v]) => v !== 0).map(([k, v]) => `${k}=${v}`).join(' ');
      io.stderr.write(`ParseSegment: finished at ${new Date().toISOString()}, elapsed: ${((Date.now() - started) / 1000).toFixed(1)} s ${summary}\n`);
      if (io.signal.aborted) return ExitCode.INTERRUPTED;
      return counters['ParseSegment.alreadyParsed'] ? ExitCode.NOTHING_TO_DO : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
