/**
 * `nutch sitemap <crawldb> [-hostdb <hostdb>] [-sitemapUrls <url_dir>] [-threads <threads>] [-force]
 * [-noStrict] [-noFilter] [-noNormalize]`, as Nutch's SitemapProcessor. Without -sitemapUrls or -hostdb the hosts of the CrawlDb are asked for their sitemaps (Nutch needs a HostDb for that).
 */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { sitemap } from '../../../core/crawl/sitemap/sitemap-processor.js';
import { intOption, parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { formatCounters } from './updatedb.js';
import { sitemapHostsOf } from '../../../core/crawl/hostdb/sitemap-hosts.js';

const usage = `Usage: nutch sitemap <crawldb> [-hostdb <hostdb>] [-sitemapUrls <url_dir>] [-threads <threads>] [-force] [-noStrict] [-noFilter] [-noNormalize]
	<crawldb>		path to crawldb where the sitemap urls would be injected
	-hostdb <hostdb>	path of a HostDb: the sitemaps of its hosts are read (robots.txt Sitemap: lines, else /sitemap.xml)
	-sitemapUrls <url_dir>	path to directory (or file) with sitemap urls or hostnames
	-threads <threads>	Number of threads created to fetch sitemap urls (default: 8)
	-force			force update even if CrawlDb appears to be locked (CAUTION advised)
	-noStrict		By default Sitemap parser rejects invalid urls. '-noStrict' disables that.
	-noFilter		turn off URLFilters on urls (optional)
	-noNormalize		turn off URLNormalizer on urls (optional)
Without -sitemapUrls or -hostdb, the sitemaps of every host in the CrawlDb are read (robots.txt Sitemap: lines, else /sitemap.xml).`;

export const sitemapCommand: Command = {
  name: 'sitemap',
  summary: 'perform Sitemap processing',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-force', '-noStrict', '-noFilter', '-noNormalize'], values: ['-sitemapUrls', '-threads', '-hostdb'] }, usage);
    const [crawlDb] = args.positional;
    if (!crawlDb || args.positional.length > 1) throw new NutchError('NUTCH_USAGE', usage);
    const threads = intOption(args, '-threads', 8, usage);
    if (threads < 1) throw new NutchError('NUTCH_USAGE', `-threads must be at least 1, got ${threads}.\n${usage}`);
    const ctx = cliContext(io, args.defines);
    try {
      const hostDb = args.values.get('-hostdb');
      const hosts = hostDb === undefined ? undefined : await sitemapHostsOf(ctx.storage, resolve(io.cwd, hostDb));
      const counters = await sitemap(ctx, {
        hosts,
        crawlDb: resolve(io.cwd, crawlDb),
        sitemapUrls: args.values.has('-sitemapUrls') ? resolve(io.cwd, args.values.get('-sitemapUrls')!) : undefined,
        threads,
        strict: args.flags.has('-noStrict') ? false : undefined,
        filter: args.flags.has('-noFilter') ? false : undefined,
        normalize: args.flags.has('-noNormalize') ? false : undefined,
        force: args.flags.has('-force'),
      }, { signal: io.signal });
      io.stdout.write(formatCounters('SitemapProcessor', counters));
      return counters.stopped ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
