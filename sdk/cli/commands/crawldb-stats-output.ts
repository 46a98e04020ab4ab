/** What domainstats, protocolstats and crawlcomplete print: the counters, then where the counts went. */
import { join, resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import type { Counters } from '../../../core/crawl/progress.js';
import { STATS_FILE } from '../../../core/crawl/crawldb-stats/count-by-key.js';
import type { CliIO } from '../command.js';
import { formatCounters } from './updatedb.js';

export function reportStats(io: CliIO, title: string, outDir: string, counters: Counters, keys: number): void {
  if (Object.keys(counters).length) io.stdout.write(formatCounters(title, counters));
  io.stdout.write(`${title}: ${keys} keys written to ${join(outDir, STATS_FILE)}\n`);
}

/** Comma-separated CrawlDb paths, as Nutch's inputDirs. */
export function crawlDbList(io: CliIO, value: string, usage: string): string[] {
  const dirs = value.split(',').map((s) => s.trim()).filter(Boolean).map((d) => resolve(io.cwd, d));
  if (dirs.length === 0) throw new NutchError('NUTCH_USAGE', usage);
  return dirs;
}

/** [numOfReducers]: Hadoop's reduce task count; one process writes one file here, so it only has to be a number. */
export function checkReducers(value: string | undefined, usage: string): void {
  if (value !== undefined && !/^\d+$/.test(value)) throw new NutchError('NUTCH_USAGE', `numOfReducers must be a number, got ${JSON.stringify(value)}.\n${usage}`);
}
