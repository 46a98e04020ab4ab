/**
 * `nutch filterchecker [-filterName <id>] (-stdin | <url> ...) [-json]`, as Nutch's URLFilterChecker:
 * one output line per input line, `+url` when accepted, `-url` when rejected. Streams: input is never
 * held in memory. -json prints one object per line, naming the filter that rejected the URL.
 */
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, writeLine, type Command } from '../command.js';
import { checkerLines } from './checker-input.js';

const usage = 'Usage: nutch filterchecker [-D k=v ...] [-filterName <extension-id>] [-allCombined] [-json] (-stdin | <url> ...)';

export const filterCheckerCommand: Command = {
  name: 'filterchecker',
  summary: 'check URLs against the URL filter chain (or one filter)',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-stdin', '-json', '-allCombined'], values: ['-filterName'] }, usage);
    const ctx = cliContext(io, args.defines);
    try {
      const filters = await ctx.extensions.urlFilters(args.values.get('-filterName'));
      const json = args.flags.has('-json');
      for await (const line of checkerLines(io.stdin, args.flags.has('-stdin') || args.positional.length === 0, args.positional, io.signal)) {
        const url = line.trim();
        const { result, rejectedBy } = filters.trace(url);
        const out = json
          ? JSON.stringify({ url, accepted: result !== null, result, ...(rejectedBy ? { rejectedBy } : {}) })
          : `${result !== null ? '+' : '-'}${url}`;
        await writeLine(io.stdout, out);
      }
      return ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
