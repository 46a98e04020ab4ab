/**
 * Search through the first configured IndexWriter that has the searcher capability (indexer-sqlite
 * does): ranked hits with url, title, snippet and score. Opens only that writer of the index-writers
 * configuration (the others are left untouched), asks it, and closes it without writing anything.
 *
 * Search needs only the index: when the index-writers configuration cannot be used (a writer for a
 * plugin that is missing or not active, a malformed file) or lists no writer that can search, the
 * embedded index `<crawl>/index` is searched through the shipped conf/index-writers.json's writer —
 * whether or not its plugin is in plugin.includes, since reading an index writes nothing.
 */
import { join, resolve } from 'node:path';
import { NutchError, errorMessage, isNutchError } from '../../errors.js';
import { IndexWriters, type IndexWriter, type SearchHit } from '../../extension-points/index-writer.js';
import { ExtensionPoints } from '../../extension-points/extension-point.js';
import { readJsonFile } from '../../config/json-file.js';
import { shippedConfDir } from '../../config/load-configuration.js';
import { matchesName, type ExtensionDescriptor } from '../../plugin/plugin-descriptor.js';
import type { NutchContext } from '../context.js';
import { openIndexWriters } from '../index/open-index-writers.js';
import { parseIndexWritersConfig } from '../index/index-writers-config.js';
import { MappedIndexWriter } from '../index/mapped-index-writer.js';

export interface SearchArgs {
  crawlDir: string;
  query: string;
  /** Maximum hits (default 10). */
  limit?: number;
}

const CONFIG_PROBLEMS = new Set(['NUTCH_INDEX_WRITERS_INVALID', 'NUTCH_CONFIG_INVALID_XML', 'NUTCH_CONFIG_INVALID_JSON', 'NUTCH_CONFIG_FILE_NOT_FOUND']);

export async function search(ctx: NutchContext, args: SearchArgs): Promise<SearchHit[]> {
  const crawlDir = resolve(args.crawlDir);
  let writers: IndexWriters | undefined;
  let configProblem: string | undefined;
  try {
    writers = await openIndexWriters(ctx, { crawlDir, searcherOnly: true });
  } catch (err) {
    if (!isNutchError(err) || !CONFIG_PROBLEMS.has(err.code)) throw err;
    configProblem = errorMessage(err);
    ctx.log.warn(`search: the index writers configuration cannot be used (${configProblem}); searching the embedded index of ${crawlDir} instead.`);
  }
  let embedded = false;
  try {
    if (!writers?.searcher()?.search) {
      await writers?.abort();
      writers = await openEmbeddedIndex(ctx, crawlDir);
      embedded = true;
    }
    return await writers.searcher()!.search!(args.query, { limit: args.limit ?? 10 });
  } catch (err) {
    // With a usable configuration that simply has no searcher, the missing embedded index is not the news.
    if (embedded && !configProblem && isNutchError(err, 'NUTCH_INDEX_NOT_FOUND')) throw noSearcher(crawlDir);
    throw err;
  } finally {
    await writers?.abort();
  }
}

async function openEmbeddedIndex(ctx: NutchContext, crawlDir: string): Promise<IndexWriters> {
  const file = join(shippedConfDir(), 'index-writers.json');
  const shipped = parseIndexWritersConfig(readJsonFile(file, 'NUTCH_INDEX_WRITERS_INVALID'), file);
  for (const w of shipped.writers) {
    const ext = ctx.plugins.descriptors.flatMap((d) => d.extensions).find((e): e is ExtensionDescriptor<IndexWriter> => e.point === ExtensionPoints.IndexWriter.id && matchesName(e, w.extension));
    if (!ext) continue;
    const instance = await ctx.plugins.newInstance(ext);
    if (typeof instance.search !== 'function') continue;
    const writer = new MappedIndexWriter(instance, w.mapping);
    await writer.open({ writerId: w.id, parameters: w.parameters, crawlDir });
    return new IndexWriters([{ writerId: w.id, writer }]);
  }
  throw noSearcher(crawlDir);
}

function noSearcher(crawlDir: string): NutchError {
  return new NutchError(
    'NUTCH_INDEX_NO_SEARCHER',
    `None of the index writers in the index-writers configuration can search, and there is no embedded index in ${crawlDir}; add indexer-sqlite (or indexer-postgres) to index-writers.json.`,
    {},
  );
}
