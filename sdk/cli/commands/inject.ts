/**
 * `nutch inject <crawldb> <url_dir> [-overwrite|-update] [-noFilter] [-noNormalize] [-filterNormalizeAll] [-force]`,
 * as Nutch's Injector; prints the Injector's totals.
 */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { inject } from '../../../core/crawl/inject/inject.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { createProgressDisplay } from '../progress-display.js';

const usage = `Usage: nutch inject [-D...] <crawldb> <url_dir> [-overwrite|-update] [-noFilter] [-noNormalize] [-filterNormalizeAll] [-force]

  <crawldb>\tPath to a crawldb directory. If not present, a new one would be created.
  <url_dir>\tPath to URL file or directory with URL file(s) containing URLs to be injected.
           \tA URL file should have one URL per line, optionally followed by custom metadata.
           \tBlank lines or lines starting with a '#' would be ignored. Custom metadata must
           \tbe of form 'key=value' and separated by tabs.
           \tBelow are reserved metadata keys:

           \t\tnutch.score: A custom score for a url
           \t\tnutch.fetchInterval: A custom fetch interval for a url
           \t\tnutch.fetchInterval.fixed: A custom fetch interval for a url that is not changed by AdaptiveFetchSchedule

 -overwrite\tOverwite existing crawldb records by the injected records. Has precedence over 'update'
 -update   \tUpdate existing crawldb records with the injected records. Old metadata is preserved

 -noNormalize\tDo not normalize URLs before injecting
 -noFilter \tDo not apply URL filters to injected URLs
 -filterNormalizeAll
           \tNormalize and filter all URLs including the URLs of existing CrawlDb records
 -force    \tInject even if the CrawlDb is locked

 -D...     \tset or overwrite configuration property (property=value)
 -Ddb.update.purge.404=true
           \tremove URLs with status gone (404) from CrawlDb`;

export const injectCommand: Command = {
  name: 'inject',
  summary: 'inject new urls into the database',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-overwrite', '-update', '-noFilter', '-noNormalize', '-filterNormalizeAll', '-force'] }, usage);
    const [crawlDb, urlDir] = args.positional;
    if (!crawlDb || !urlDir || args.positional.length > 2) throw new NutchError('NUTCH_USAGE', usage);
    const ctx = cliContext(io, args.defines);
    try {
      const counters = await inject(ctx, {
        crawlDb: resolve(io.cwd, crawlDb),
        urlDir: resolve(io.cwd, urlDir),
        overwrite: args.flags.has('-overwrite') || undefined,
        update: args.flags.has('-update') || undefined,
        noFilter: args.flags.has('-noFilter'),
        noNormalize: args.flags.has('-noNormalize'),
        filterNormalizeAll: args.flags.has('-filterNormalizeAll'),
        force: args.flags.has('-force'),
      }, { signal: io.signal, onProgress: createProgressDisplay(io.stderr as never) });
      const c = (k: string) => counters[k] ?? 0;
      io.stdout.write([
        `Injector: Total urls rejected by filters: ${c('urls_filtered')}`,
        `Injector: Total urls injected after normalization and filtering: ${c('urls_injected')} (unique URLs: ${c('urls_injected_unique')})`,
        `Injector: Total urls injected but already in CrawlDb: ${c('urls_merged')}`,
        `Injector: Total new urls injected: ${c('urls_injected_unique') - c('urls_merged')}`,
        `Injector: Total malformed seed lines: ${c('urls_malformed')}`,
        ...(c('urls_too_long') ? [`Injector: Total urls longer than db.max.outlink.length: ${c('urls_too_long')}`] : []),
        ...(c('metadata_invalid') ? [`Injector: Total invalid metadata fields ignored: ${c('metadata_invalid')}`] : []),
        ...(counters.urls_purged_404 !== undefined ? [`Injector: Total urls with status gone removed from CrawlDb (db.update.purge.404): ${c('urls_purged_404')}`] : []),
        ...(counters.urls_purged_filter !== undefined ? [`Injector: Total urls removed from CrawlDb by filters: ${c('urls_purged_filter')}`] : []),
        '',
      ].join('\n'));
      return io.signal.aborted ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
