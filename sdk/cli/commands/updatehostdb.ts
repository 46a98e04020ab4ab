/** `nutch updatehostdb -hostdb <hostdb> [-tophosts <file>] [-crawldb <crawldb>] [-checkAll] [-checkFailed] [-checkNew] [-checkKnown] [-force] [-filter] [-normalize]`, as Nutch's UpdateHostDb. */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { updateHostDb } from '../../../core/crawl/hostdb/update-hostdb.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';

const usage = `Usage: nutch updatehostdb -hostdb <hostdb> [-tophosts <tophosts>] [-crawldb <crawldb>] [-checkAll] [-checkFailed] [-checkNew] [-checkKnown] [-force] [-filter] [-normalize]
	-hostdb <hostdb>	the HostDb to create or update (e.g. crawl/hostdb)
	-crawldb <crawldb>	count each host's CrawlDb records per status, failures, home page and statistics
	-tophosts <file>	host<TAB>score lines; a positive score replaces the host's
	-checkNew		check DNS of hosts never checked
	-checkKnown		check DNS of known hosts again (after hostdb.recheck.interval)
	-checkFailed		check DNS of hosts with DNS failures again
	-checkAll		all three checks
	-force			check eligible hosts whatever their last check
	-filter			pass hosts through the URL filters (as http://<host>/)
	-normalize		pass hosts through the URL normalizers`;

export const updatehostdbCommand: Command = {
  name: 'updatehostdb',
  summary: 'update the host db with records from the crawl db',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, {
      flags: ['-checkAll', '-checkFailed', '-checkNew', '-checkKnown', '-force', '-filter', '-normalize'],
      values: ['-hostdb', '-crawldb', '-tophosts'],
    }, usage);
    const hostDb = args.values.get('-hostdb');
    if (hostDb === undefined) throw new NutchError('NUTCH_USAGE', `updatehostdb: -hostdb <hostdb> is mandatory.\n${usage}`);
    if (args.positional.length > 0) throw new NutchError('NUTCH_USAGE', `updatehostdb: unexpected argument ${JSON.stringify(args.positional[0])}.\n${usage}`);
    const crawlDb = args.values.get('-crawldb');
    const topHosts = args.values.get('-tophosts');
    const all = args.flags.has('-checkAll');
    const on = (flag: string) => (all || args.flags.has(flag) ? true : undefined);
    const ctx = cliContext(io, args.defines);
    try {
      const counters = await updateHostDb(ctx, {
        hostDb: resolve(io.cwd, hostDb),
        crawlDb: crawlDb === undefined ? undefined : resolve(io.cwd, crawlDb),
        topHosts: topHosts === undefined ? undefined : resolve(io.cwd, topHosts),
        checkNew: on('-checkNew'), checkKnown: on('-checkKnown'), checkFailed: on('-checkFailed'),
        force: args.flags.has('-force') || undefined,
        filter: args.flags.has('-filter') || undefined,
        normalize: args.flags.has('-normalize') || undefined,
      }, { signal: io.signal });
      io.stdout.write(`UpdateHostDb: ${hostDb}\n`);
      for (const [k, v] of Object.entries(counters).sort(([a], [b]) => a.localeCompare(b))) io.stdout.write(`\t${k}=${v}\n`);
      return counters.stopped ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
