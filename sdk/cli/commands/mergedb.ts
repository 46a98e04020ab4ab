/** `nutch mergedb <output_crawldb> <crawldb1> [<crawldb2> ...] [-normalize] [-filter]`, as Nutch's CrawlDbMerger. */
import { mergedb } from '../../../core/crawl/mergedb/mergedb.js';
import { mergeCommand } from './merge-command.js';

const usage = `Usage: nutch mergedb <output_crawldb> <crawldb1> [<crawldb2> <crawldb3> ...] [-normalize] [-filter]
	output_crawldb	output CrawlDb (replaced if it exists)
	crawldb1 ...	input CrawlDb-s (single input CrawlDb is ok)
	-normalize	use URLNormalizer on urls in the crawldb(s) (usually not needed)
	-filter	use URLFilters on urls in the crawldb(s)
	-force	take the output's writer lock even if it appears locked (CAUTION advised)`;

export const mergedbCommand = mergeCommand({
  name: 'mergedb',
  summary: 'merge crawldb-s, with optional filtering',
  usage,
  counterGroup: 'CrawlDbMerger',
  merge: (ctx, run, opts) => mergedb(ctx, { output: run.output, crawlDbs: run.inputs, normalize: run.normalize, filter: run.filter, force: run.force }, opts),
});
