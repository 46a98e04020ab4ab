/** `nutch readlinkdb <linkdb> (-dump <out_dir> [-regex <regex>] [-format text|json] | -url <url> [-json])`, as Nutch's LinkDbReader. */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { readlinkdb } from '../../../core/crawl/readlinkdb/readlinkdb.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';

const usage = `Usage: nutch readlinkdb <linkdb> (-dump <out_dir> [-regex <regex>] [-format text|json]) | -url <url> [-json]
  -dump <out_dir>  dump whole link db to a text file in <out_dir>
  -regex <regex>   filter records with expression
  -format          text (Nutch's layout, default) or json (one object per line)
  -url <url>       print information about <url> to System.out`;

export const readlinkdbCommand: Command = {
  name: 'readlinkdb',
  summary: 'read / dump link db',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-json'], values: ['-dump', '-url', '-regex', '-format'] }, usage);
    const [linkDb, ...rest] = args.positional;
    const dump = args.values.get('-dump');
    const url = args.values.get('-url');
    if (!linkDb || rest.length > 0 || (dump === undefined) === (url === undefined)) throw new NutchError('NUTCH_USAGE', usage);
    const format = args.flags.has('-json') ? 'json' : args.values.get('-format') ?? 'text';
    if (format !== 'text' && format !== 'json') throw new NutchError('NUTCH_USAGE', `-format must be text or json.\n${usage}`);
    const ctx = cliContext(io, args.defines);
    try {
      const lines: string[] = [];
      const counters = await readlinkdb(ctx, {
        linkDb: resolve(io.cwd, linkDb), dump: dump === undefined ? undefined : resolve(io.cwd, dump), url, regex: args.values.get('-regex'), format,
        write: (line) => lines.push(line),
      }, { signal: io.signal });
      for (const line of lines) io.stdout.write(line + '\n');
      if (dump !== undefined) io.stdout.write(`LinkDb dump: ${counters.urls} URLs, ${counters.inlinks} inlinks written to ${resolve(io.cwd, dump)}\n`);
      return ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
