/**
 * `nutch worker [-threads N] [-idleExit seconds] <segments_dir>`: a long-running fetch worker that
 * takes the fetch partitions of every generated segment under the directory, on this or any machine
 * sharing the storage (storage.url), until SIGINT/SIGTERM — a polite stop that gives back the
 * partition in hand. See docs/scale-out.md.
 */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { fetchStage } from '../../../core/crawl/fetch/fetch-stage.js';
import { fetchWorker } from '../../../core/crawl/worker/fetch-worker.js';
import { intOption, parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { createProgressDisplay } from '../progress-display.js';

const usage = 'Usage: nutch worker [-D k=v ...] [-threads N] [-idleExit seconds] <segments_dir>';

export const workerCommand: Command = {
  name: 'worker',
  summary: 'fetch partitions of generated segments until stopped (scale-out)',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['-threads', '-idleExit'] }, usage);
    if (args.positional.length !== 1) throw new NutchError('NUTCH_USAGE', usage);
    const threads = args.values.has('-threads') ? intOption(args, '-threads', 10, usage) : undefined;
    if (threads !== undefined && threads < 1) throw new NutchError('NUTCH_USAGE', `-threads must be at least 1.\n${usage}`);
    const idleExit = args.values.has('-idleExit') ? intOption(args, '-idleExit', 0, usage) : undefined;
    const ctx = cliContext(io, args.defines);
    try {
      const display = createProgressDisplay(io.stderr as never);
      await fetchWorker(ctx, {
        segmentsDir: resolve(io.cwd, args.positional[0]!),
        threads,
        fetch: fetchStage,
        idleExitMs: idleExit !== undefined ? idleExit * 1000 : undefined,
      }, { signal: io.signal, onProgress: display });
      return io.signal.aborted ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
