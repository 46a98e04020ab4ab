/** `nutch dedup <crawldb> [-group <none|host|domain>] [-compareOrder <score>,<fetchTime>,<httpsOverHttp>,<urlLength>]`, as Nutch's DeduplicationJob. */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { dedup, parseCompareOrder, type DedupGroup } from '../../../core/crawl/dedup/dedup.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { formatCounters } from './updatedb.js';
import { createProgressDisplay } from '../progress-display.js';

const usage = `Usage: nutch dedup <crawldb> [-group <none|host|domain>] [-compareOrder <score>,<fetchTime>,<httpsOverHttp>,<urlLength>] [-force]
  -group         pages with the same signature are duplicates only within a host or domain (default none)
  -compareOrder  which page of a duplicate group is kept: the criteria in this order (default score,fetchTime,urlLength)`;

export const dedupCommand: Command = {
  name: 'dedup',
  summary: 'deduplicate entries in the crawldb and give them a special status',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-force'], values: ['-group', '-compareOrder'] }, usage);
    const [crawlDb, ...rest] = args.positional;
    if (!crawlDb || rest.length > 0) throw new NutchError('NUTCH_USAGE', usage);
    const group = args.values.get('-group') ?? 'none';
    if (!['none', 'host', 'domain'].includes(group)) throw new NutchError('NUTCH_USAGE', `-group must be none, host or domain, got ${JSON.stringify(group)}.\n${usage}`);
    const compareOrder = parseCompareOrder(args.values.get('-compareOrder')?.split(',').map((s) => s.trim()).filter(Boolean));
    const ctx = cliContext(io, args.defines);
    try {
      const counters = await dedup(ctx, { crawlDb: resolve(io.cwd, crawlDb), group: group as DedupGroup, compareOrder, force: args.flags.has('-force') }, { signal: io.signal, onProgress: createProgressDisplay(io.stderr as never) });
      io.stdout.write(`Deduplication: ${counters.documents_marked_as_duplicate} documents marked as duplicates\n`);
      io.stdout.write(formatCounters('DeduplicationJobStatus', counters));
      return counters.stopped ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
