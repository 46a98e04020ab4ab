/** `nutch mergelinkdb <output_linkdb> <linkdb1> [<linkdb2> ...] [-normalize] [-filter]`, as Nutch's LinkDbMerger. */
import { mergelinkdb } from '../../../core/crawl/mergelinkdb/mergelinkdb.js';
import { mergeCommand } from './merge-command.js';

const usage = `Usage: nutch mergelinkdb <output_linkdb> <linkdb1> [<linkdb2> <linkdb3> ...] [-normalize] [-filter]
	output_linkdb	output LinkDb (replaced if it exists)
	linkdb1 ...	input LinkDb-s (single input LinkDb is ok)
	-normalize	use URLNormalizer on urls in the linkdb(s) (usually not needed)
	-filter	use URLFilters on urls in the linkdb(s)
	-force	take the output's writer lock even if it appears locked (CAUTION advised)`;

export const mergelinkdbCommand = mergeCommand({
  name: 'mergelinkdb',
  summary: 'merge linkdb-s, with optional filtering',
  usage,
  counterGroup: 'LinkDbMerger',
  merge: (ctx, run, opts) => mergelinkdb(ctx, { output: run.output, linkDbs: run.inputs, normalize: run.normalize, filter: run.filter, force: run.force }, opts),
});
