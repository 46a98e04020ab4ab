/** `nutch warc <output> (<segment> ... | -dir <segments>)`, as Nutch's WARCExporter. */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { exportWarc, WARC_FILE } from '../../../core/crawl/warc/warc-export.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { formatCounters, segmentArgs } from './updatedb.js';

const usage = `Usage: nutch warc <output> (<segment> ... | -dir <segments>)
  output         directory to write ${WARC_FILE} into (WARC/1.1, one gzip member per record)
  segment ...    segments whose content to export
  -dir segments  parent directory of segments to export
Set store.http.request=true while fetching to get a WARC request record beside each response.`;

export const warcCommand: Command = {
  name: 'warc',
  summary: 'export content in a segment to WARC format',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { multi: ['-dir'] }, usage);
    const [output, ...segs] = args.positional;
    if (!output) throw new NutchError('NUTCH_USAGE', usage);
    const ctx = cliContext(io, args.defines);
    try {
      const segments = await segmentArgs(ctx, io, args, segs, usage);
      const counters = await exportWarc(ctx, { output: resolve(io.cwd, output), segments }, { signal: io.signal });
      io.stdout.write(formatCounters('WARCExporter', counters));
      return io.signal.aborted ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
