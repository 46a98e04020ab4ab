/**
 * `nutch readseg (-list (<segment> ... | -dir <segments>) | -dump <segment> <output> | -get <segment> <url>)
 * [-nocontent] [-nofetch] [-nogenerate] [-noparse] [-noparsedata] [-noparsetext]`, as Nutch's SegmentReader.
 */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { ALL_PARTS, dumpSegment, formatListing, getRecords, listSegment, type PartSelection } from '../../../core/crawl/readseg/readseg.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, writeLine, type Command } from '../command.js';

const usage = `Usage: nutch readseg (-dump ... | -list ... | -get ...) [general options]
* General options:
	-nocontent	ignore content directory
	-nofetch	ignore crawl_fetch directory
	-nogenerate	ignore crawl_generate directory
	-noparse	ignore crawl_parse directory
	-noparsedata	ignore parse_data directory
	-noparsetext	ignore parse_text directory
* SegmentReader -dump <segment_dir> <output> [general options]
* SegmentReader -list (<segment_dir1> ... | -dir <segments>)
* SegmentReader -get <segment_dir> <keyValue> [general options]`;

const PART_FLAGS: Record<string, keyof PartSelection> = {
  '-nocontent': 'content', '-nofetch': 'crawl_fetch', '-nogenerate': 'crawl_generate',
  '-noparse': 'crawl_parse', '-noparsedata': 'parse_data', '-noparsetext': 'parse_text',
};

export const readsegCommand: Command = {
  name: 'readseg',
  summary: 'read / dump segment data',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-list', '-dump', '-get', ...Object.keys(PART_FLAGS)], values: ['-dir'] }, usage);
    const modes = ['-list', '-dump', '-get'].filter((m) => args.flags.has(m));
    if (modes.length !== 1) throw new NutchError('NUTCH_USAGE', usage);
    const parts: PartSelection = { ...ALL_PARTS };
    for (const [flag, part] of Object.entries(PART_FLAGS)) if (args.flags.has(flag)) parts[part] = false;
    const ctx = cliContext(io, args.defines);
    try {
      const p = args.positional.map((x) => resolve(io.cwd, x));
      if (modes[0] === '-list') {
        const dirs = args.values.has('-dir') ? await ctx.storage.listSegments(resolve(io.cwd, args.values.get('-dir')!)) : p;
        if (dirs.length === 0) throw new NutchError('NUTCH_USAGE', usage);
        const rows = [];
        for (const d of dirs) rows.push(await listSegment(ctx, d));
        for (const line of formatListing(rows)) await writeLine(io.stdout, line);
        return ExitCode.OK;
      }
      if (p.length !== 2) throw new NutchError('NUTCH_USAGE', usage);
      if (modes[0] === '-get') {
        const records = await getRecords(ctx, p[0]!, args.positional[1]!, parts);
        for (const r of records) await writeLine(io.stdout, r);
        return records.length ? ExitCode.OK : ExitCode.NOTHING_TO_DO;
      }
      const c = await dumpSegment(ctx, { segment: p[0]!, output: p[1]!, parts }, { signal: io.signal });
      io.stderr.write(`SegmentReader: dumped ${c.records} records to ${resolve(p[1]!, 'dump')}\n`);
      return ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
