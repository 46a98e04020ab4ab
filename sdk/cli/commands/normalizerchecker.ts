/**
 * `nutch normalizerchecker [-normalizer <id>] [-scope <scope>] (-stdin | <url> ...) [-json]`, as Nutch's
 * URLNormalizerChecker: one output line per input line, the normalised URL or an empty line when a
 * normaliser dropped it. -json names the normalisers that changed or dropped the URL.
 */
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, writeLine, type Command } from '../command.js';
import { checkerLines } from './checker-input.js';

const usage = 'Usage: nutch normalizerchecker [-D k=v ...] [-normalizer <extension-id>] [-scope <scope>] [-json] (-stdin | <url> ...)';

export const normalizerCheckerCommand: Command = {
  name: 'normalizerchecker',
  summary: 'check URLs against the URL normalizer chain of a scope (or one normalizer)',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-stdin', '-json'], values: ['-normalizer', '-scope'] }, usage);
    const ctx = cliContext(io, args.defines);
    try {
      const normalizers = await ctx.extensions.urlNormalizers(args.values.get('-scope') ?? 'default', args.values.get('-normalizer'));
      const json = args.flags.has('-json');
      for await (const line of checkerLines(io.stdin, args.flags.has('-stdin') || args.positional.length === 0, args.positional, io.signal)) {
        const url = line.trim();
        const t = normalizers.trace(url);
        const out = json ? JSON.stringify({ url, result: t.result, changedBy: t.changedBy, ...(t.droppedBy ? { droppedBy: t.droppedBy } : {}) }) : t.result ?? '';
        await writeLine(io.stdout, out);
      }
      return ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
