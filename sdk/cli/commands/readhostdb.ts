/** `nutch readhostdb <hostdb> <output> [-dumpHomepages | -dumpHostnames | -expr <expr>]`, as Nutch's ReadHostDb. */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { readHostDb } from '../../../core/crawl/hostdb/read-hostdb.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';

const usage = `Usage: nutch readhostdb <hostdb> <output> [-dumpHomepages | -dumpHostnames | -expr <expr>]
	<output>		directory written: part-00000, one line per host (<host><TAB><HostDatum>)
	-dumpHomepages		write only the home page URLs
	-dumpHostnames		write only the host names
	-expr <expr>		keep the hosts for which the expression is true, e.g. "fetched > 10 && dnsFailures == 0" (docs/hostdb.md)`;

export const readhostdbCommand: Command = {
  name: 'readhostdb',
  summary: 'read / dump host db',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-dumpHomepages', '-dumpHostnames'], values: ['-expr'] }, usage);
    const [hostDb, output, ...extra] = args.positional;
    if (!hostDb || !output || extra.length) throw new NutchError('NUTCH_USAGE', usage);
    const ctx = cliContext(io, args.defines);
    try {
      const out = resolve(io.cwd, output);
      const counters = await readHostDb(ctx, {
        hostDb: resolve(io.cwd, hostDb), output: out, expr: args.values.get('-expr'),
        dumpHomepages: args.flags.has('-dumpHomepages'), dumpHostnames: args.flags.has('-dumpHostnames'),
      }, { signal: io.signal });
      const skipped = counters.expression_errors ? `, ${counters.expression_errors} skipped (expression errors)` : '';
      io.stdout.write(`ReadHostDb: ${counters.written} of ${counters.hosts} hosts written to ${out}${skipped}\n`);
      return counters.stopped ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
