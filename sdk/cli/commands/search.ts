/**
 * `nutch search <crawl_dir> "query" [-n N] [-json]`: ranked hits from the first configured index
 * writer that can search (the embedded index `<crawl_dir>/index` by default). Prints, per hit, the
 * rank and title, the URL, the snippet and the score; -json prints one JSON object per hit.
 */
import { parseArgs, intOption } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, writeLine, type Command } from '../command.js';
import { NutchError } from '../../../core/errors.js';
import { search } from '../../../core/crawl/search/search.js';
import { resolve } from 'node:path';
import { formatScore, renderSnippet } from '../search-format.js';

const usage = 'Usage: nutch search [-D k=v ...] <crawl_dir> [--] "query" [-n N] [-json]';

export const searchCommand: Command = {
  name: 'search',
  summary: 'search the embedded index of a crawl directory',
  usage,
  async run(argv, io) {
    // a query may start with '-' (`nutch search crawl -word`, or after `--`): only -json and -n are options
    const args = parseArgs(argv, { flags: ['-json'], values: ['-n'], unknownAsPositional: true }, usage);
    if (args.positional.length !== 2) throw new NutchError('NUTCH_USAGE', usage);
    const limit = intOption(args, '-n', 10, usage);
    if (limit < 1) throw new NutchError('NUTCH_USAGE', `-n must be at least 1.\n${usage}`);
    const ctx = cliContext(io, args.defines);
    try {
      const [crawlDir, query] = args.positional as [string, string];
      const hits = await search(ctx, { crawlDir: resolve(io.cwd, crawlDir), query, limit });
      if (args.flags.has('-json')) {
        for (const h of hits) await writeLine(io.stdout, JSON.stringify({ url: h.url, title: h.title, snippet: h.snippet, score: h.score }));
      } else {
        const tty = (io.stdout as { isTTY?: boolean }).isTTY === true;
        await writeLine(io.stdout, `${hits.length} hit(s) for ${JSON.stringify(query)}`);
        for (const [i, h] of hits.entries()) {
          await writeLine(io.stdout, `${i + 1}. ${h.title || '(no title)'}\n   ${h.url}\n   ${renderSnippet(h.snippet, tty)}\n   score=${formatScore(h.score)}`);
        }
      }
      return ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
