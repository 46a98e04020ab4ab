/** The shape mergedb and mergelinkdb share: `<output> <input> [<input> ...] [-normalize] [-filter] [-force]`. */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import type { NutchContext } from '../../../core/crawl/context.js';
import type { Counters, StageOptions } from '../../../core/crawl/progress.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { formatCounters } from './updatedb.js';

export interface MergeRun {
  output: string;
  inputs: string[];
  normalize: boolean;
  filter: boolean;
  force: boolean;
}

export function mergeCommand(spec: {
  name: string;
  summary: string;
  usage: string;
  /** Nutch's counter group printed with the counters (CrawlDbMerger, LinkDbMerger). */
  counterGroup: string;
  merge(ctx: NutchContext, run: MergeRun, opts: StageOptions): Promise<Counters>;
}): Command {
  const { name, summary, usage } = spec;
  return {
    name,
    summary,
    usage,
    async run(argv, io) {
      const args = parseArgs(argv, { flags: ['-normalize', '-filter', '-force'] }, usage);
      const [output, ...inputs] = args.positional;
      if (!output || inputs.length === 0) throw new NutchError('NUTCH_USAGE', usage);
      const ctx = cliContext(io, args.defines);
      try {
        const counters = await spec.merge(ctx, {
          output: resolve(io.cwd, output), inputs: inputs.map((p) => resolve(io.cwd, p)),
          normalize: args.flags.has('-normalize'), filter: args.flags.has('-filter'), force: args.flags.has('-force'),
        }, { signal: io.signal });
        io.stdout.write(formatCounters(spec.counterGroup, counters));
        return counters.stopped ? ExitCode.INTERRUPTED : ExitCode.OK;
      } finally {
        await ctx.close();
      }
    },
  };
}
