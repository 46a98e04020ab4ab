/**
 * `nutch readdb <crawldb> (-stats [-sort] [-json] | -dump <out_dir> [-format normal|csv|json|crawldb]
 * [-regex <expr>] [-retry <num>] [-status <status>] | -url <url> [-json] | -topN <nnnn> <out_dir> [<min>])`,
 * as Nutch's CrawlDbReader; statistics and -url go to stdout.
 */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { readdb } from '../../../core/crawl/readdb/readdb.js';
import type { DumpFormat } from '../../../core/crawl/readdb/crawldb-dump.js';
import { intOption, parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, writeLine, type Command } from '../command.js';

const usage = `Usage: nutch readdb <crawldb> (-stats | -dump <out_dir> | -topN <nnnn> <out_dir> [<min>] | -url <url>)
\t<crawldb>\tdirectory name where crawldb is located
\t-stats [-sort] \tprint overall statistics to System.out
\t\t[-sort]\tlist status sorted by host
\t\t[-json]\tprint the statistics as JSON
\t-dump <out_dir> [-format normal|csv|json|crawldb]\tdump the whole db to a text file in <out_dir>
\t\t[-format csv]\tdump in Csv format
\t\t[-format normal]\tdump in standard format (default option)
\t\t[-format json]\tdump as JSON lines
\t\t[-format crawldb]\tdump as CrawlDB
\t\t[-regex <expr>]\tfilter records with expression
\t\t[-retry <num>]\tminimum retry count
\t\t[-status <status>]\tfilter records by CrawlDatum status
\t-url <url>\tprint information on <url> to System.out
\t-topN <nnnn> <out_dir> [<min>]\tdump top <nnnn> urls sorted by score to <out_dir>
\t\t[<min>]\tskip records with scores below this value.
\t\t\tThis can significantly improve performance.`;

export const readdbCommand: Command = {
  name: 'readdb',
  summary: 'read / dump crawl db',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-stats', '-sort', '-json'], values: ['-dump', '-format', '-regex', '-retry', '-status', '-url', '-topN'] }, usage);
    const [crawlDb, topNOut, minArg, ...extra] = args.positional;
    const actions = ['-stats', '-dump', '-url', '-topN'].filter((a) => args.flags.has(a) || args.values.has(a));
    if (!crawlDb || actions.length === 0 || extra.length > 0) throw new NutchError('NUTCH_USAGE', usage);
    if (args.values.has('-topN') && !topNOut) throw new NutchError('NUTCH_USAGE', `-topN needs <nnnn> <out_dir>.\n${usage}`);
    if (!args.values.has('-topN') && topNOut !== undefined) throw new NutchError('NUTCH_USAGE', `Unexpected argument ${topNOut}.\n${usage}`);
    const min = minArg === undefined ? undefined : Number(minArg);
    if (min !== undefined && !Number.isFinite(min)) throw new NutchError('NUTCH_USAGE', `<min> must be a number, got ${JSON.stringify(minArg)}.\n${usage}`);
    const format = args.values.get('-format') as DumpFormat | undefined;
    if (format !== undefined && !['normal', 'csv', 'json', 'crawldb'].includes(format)) throw new NutchError('NUTCH_USAGE', `-format must be normal, csv, json or crawldb.\n${usage}`);
    const ctx = cliContext(io, args.defines);
    try {
      await readdb(ctx, {
        crawlDb: resolve(io.cwd, crawlDb),
        stats: args.flags.has('-stats'),
        sort: args.flags.has('-sort'),
        json: args.flags.has('-json'),
        dump: args.values.has('-dump') ? resolve(io.cwd, args.values.get('-dump')!) : undefined,
        format,
        regex: args.values.get('-regex'),
        status: args.values.get('-status'),
        retry: args.values.has('-retry') ? intOption(args, '-retry', 0, usage) : undefined,
        url: args.values.get('-url'),
        topN: args.values.has('-topN') ? intOption(args, '-topN', 0, usage) : undefined,
        topNOut: topNOut !== undefined ? resolve(io.cwd, topNOut) : undefined,
        min,
        print: (text) => writeLine(io.stdout, text.replace(/\n$/, '')),
      }, { signal: io.signal });
      return io.signal.aborted ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
