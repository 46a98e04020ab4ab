/**
 * Search through the first configured IndexWriter that has the searcher capability (indexer-sqlite
 * does): ranked hits with url, title, snippet and score. Opens only that writer of index-writers.json
 * (the others are left untouched), asks it, and closes it without writing anything.
 */
import { resolve } from 'node:path';
import { NutchError } from '../../errors.js';
import type { SearchHit } from '../../extension-points/index-writer.js';
import type { NutchContext } from '../context.js';
import { openIndexWriters } from '../index/open-index-writers.js';

export interface SearchArgs {
  crawlDir: string;
  query: string;
  /** Maximum hits (default 10). */
  limit?: number;
}

export async function search(ctx: NutchContext, args: SearchArgs): Promise<SearchHit[]> {
  const writers = await openIndexWriters(ctx, { crawlDir: resolve(args.crawlDir), searcherOnly: true });
  try {
    const searcher = writers.searcher();
    if (!searcher?.search) {
      throw new NutchError('NUTCH_INDEX_NO_SEARCHER', `None of the index writers in index-writers.json can search; add indexer-sqlite (or indexer-postgres) to index-writers.json.`, {});
    }
    return await searcher.search(args.query, { limit: args.limit ?? 10 });
  } finally {
    await writers.abort();
  }
}
