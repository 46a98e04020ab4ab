/**
 * `nutch updatedb <crawldb> (-dir <segments> | <seg1> <seg2> ...) [-force] [-normalize] [-filter] [-noAdditions]`,
 * as Nutch's CrawlDb tool. Prints the CrawlDB status counters when done.
 */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { updatedb } from '../../../core/crawl/updatedb/updatedb.js';
import type { Counters } from '../../../core/crawl/progress.js';
import type { NutchContext } from '../../../core/crawl/context.js';
import { parseArgs, type ParsedArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type CliIO, type Command } from '../command.js';
import { createProgressDisplay } from '../progress-display.js';

const usage = `Usage: nutch updatedb <crawldb> (-dir <segments> | <seg1> <seg2> ...) [-force] [-normalize] [-filter] [-noAdditions]
  crawldb        CrawlDb to update
  -dir segments  parent directory containing all segments to update from
  seg1 seg2 ...  list of segment names to update from
  -force         force update even if CrawlDb appears to be locked (CAUTION advised)
  -normalize     use URLNormalizer on urls in CrawlDb and segment (usually not needed)
  -filter        use URLFilters on urls in CrawlDb and segment
  -noAdditions   only update already existing URLs, don't add any newly discovered URLs`;

export const updatedbCommand: Command = {
  name: 'updatedb',
  summary: 'update crawldb from segments after fetching',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-force', '-normalize', '-filter', '-noAdditions'], multi: ['-dir'] }, usage);
    const [crawlDb, ...segs] = args.positional;
    if (!crawlDb) throw new NutchError('NUTCH_USAGE', usage);
    const ctx = cliContext(io, args.defines);
    try {
      const segments = await segmentArgs(ctx, io, args, segs, usage);
      const counters = await updatedb(ctx, {
        crawlDb: resolve(io.cwd, crawlDb), segments,
        force: args.flags.has('-force'), normalize: args.flags.has('-normalize'), filter: args.flags.has('-filter'), noAdditions: args.flags.has('-noAdditions'),
      }, { signal: io.signal, onProgress: createProgressDisplay(io.stderr as never) });
      io.stdout.write(formatCounters('CrawlDb update', counters));
      return counters.stopped ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};

/** Segment paths from `-dir <segments>` (every segment in it, oldest first) and positional names. */
export async function segmentArgs(ctx: NutchContext, io: CliIO, args: ParsedArgs, positional: string[], usageText: string): Promise<string[]> {
  const segments = positional.map((s) => resolve(io.cwd, s));
  for (const dir of args.multi.get('-dir') ?? []) segments.push(...(await ctx.storage.listSegments(resolve(io.cwd, dir))));
  if (segments.length === 0) throw new NutchError('NUTCH_USAGE', `No segments given (name them, or use -dir <segments>).\n${usageText}`);
  return segments;
}

/** One line per counter, sorted, under a title (Nutch's job counters). */
export function formatCounters(title: string, counters: Counters): string {
  const lines = [`${title}:`];
  for (const [k, v] of Object.entries(counters).sort(([a], [b]) => a.localeCompare(b))) lines.push(`  ${k}=${v}`);
  return lines.join('\n') + '\n';
}
