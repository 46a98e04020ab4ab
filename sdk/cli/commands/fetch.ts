/**
 * `nutch fetch <segment> [-threads N]`, as Nutch's Fetcher: fetches the segment's crawl_generate into
 * crawl_fetch and content (and, with fetcher.parse, parses inline into the parse parts). A first Ctrl-C is a polite stop (exit 130, fetched pages kept; run the same
 * command again to resume); progress as a bar on a TTY, a status line per interval otherwise.
 */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { fetchStage } from '../../../core/crawl/fetch/fetch-stage.js';
import { intOption, parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { createProgressDisplay } from '../progress-display.js';

const usage = 'Usage: nutch fetch [-D k=v ...] <segment> [-threads N]';

export const fetchCommand: Command = {
  name: 'fetch',
  summary: 'fetch a segment (Fetcher)',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['-threads'] }, usage);
    if (args.positional.length !== 1) throw new NutchError('NUTCH_USAGE', usage);
    const threads = args.values.has('-threads') ? intOption(args, '-threads', 10, usage) : undefined;
    if (threads !== undefined && threads < 1) throw new NutchError('NUTCH_USAGE', `-threads must be at least 1.\n${usage}`);
    const ctx = cliContext(io, args.defines);
    try {
      const display = createProgressDisplay(io.stderr as never);
      await fetchStage(ctx, { segment: resolve(io.cwd, args.positional[0]!), threads }, { signal: io.signal, onProgress: display });
      return io.signal.aborted ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};

