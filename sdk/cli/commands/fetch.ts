/**
 * `nutch fetch <segment> [-threads N]`, as Nutch's Fetcher: fetches the segment's crawl_generate into
 * crawl_fetch and content (and, with fetcher.parse, parses inline into the parse parts). A first Ctrl-C is a polite stop (exit 130, fetched pages kept; run the same
 * command again to resume); progress as a bar on a TTY, a status line per interval otherwise.
 */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { fetchStage } from '../../../core/crawl/stages.js';
import { intOption, parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';
import { createProgressDisplay } from '../progress-display.js';
import type { ProgressEvent } from '../../../core/crawl/progress.js';
import type { Writable } from 'node:stream';

const usage = 'Usage: nutch fetch [-D k=v ...] <segment> [-threads N]';

export const fetchCommand: Command = {
  name: 'fetch',
  summary: 'fetch a segment (Fetcher)',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['-threads'] }, usage);
    if (args.positional.length !== 1) throw new NutchError('NUTCH_USAGE', usage);
    const threads = args.values.has('-threads') ? intOption(args, '-threads', 10, usage) : undefined;
    if (threads !== undefined && threads < 1) throw new NutchError('NUTCH_USAGE', `-threads must be at least 1.\n${usage}`);
    const ctx = cliContext(io, args.defines);
    try {
      const display = fetchProgress(io.stderr as never, createProgressDisplay(io.stderr as never));
      await fetchStage(ctx, { segment: resolve(io.cwd, args.positional[0]!), threads }, { signal: io.signal, onProgress: display });
      return io.signal.aborted ? ExitCode.INTERRUPTED : ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};

/**
 * Fetch's status line: pages, pages/s, bytes/s, active queues, queued items — redrawn in place on a TTY,
 * one line per 10 s otherwise; every other event goes to the shared display.
 */
export function fetchProgress(out: Writable & { isTTY?: boolean }, next: (e: ProgressEvent) => void): (e: ProgressEvent) => void {
  let last = 0;
  let drawn = false;
  return (e) => {
    if (e.type !== 'progress' || e.stage !== 'fetch') {
      if (drawn && e.type !== 'page') {
        out.write('\r\x1b[2K');
        drawn = false;
      }
      if (e.type !== 'page') next(e);
      return;
    }
    const c = e.counters ?? {};
    const line = `fetch: ${e.done} pages, ${c.pages_per_second ?? 0} pages/s, ${((c.bytes_per_second ?? 0) / 1024).toFixed(0)} kB/s, ${c.active_queues ?? 0} active queues, ${c.queued ?? 0} queued, ${c.in_flight ?? 0} in flight`;
    if (out.isTTY) {
      out.write(`\r\x1b[2K${line}`);
      drawn = true;
    } else if (Date.now() - last >= 10_000) {
      last = Date.now();
      out.write(`${new Date().toISOString()} ${line}\n`);
    }
  };
}
