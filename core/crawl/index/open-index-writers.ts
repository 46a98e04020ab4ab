/**
 * Builds the fan-out IndexWriters composite from index-writers.json (or Nutch's index-writers.xml),
 * for the writers resolveIndexWriters() lets run: one fresh instance per writer
 * (two writers may run the same extension with different parameters, as in Nutch), each wrapped in
 * its field mapping and opened with its parameters. A writer that fails to open closes the ones
 * already open and fails naming itself.
 */
import { NutchError, errorMessage } from '../../errors.js';
import { IndexWriters, type IndexWriter } from '../../extension-points/index-writer.js';
import type { NutchContext } from '../context.js';
import { readIndexWritersConfig, type IndexWritersConfig } from './index-writers-config.js';
import { resolveIndexWriters } from './resolve-index-writers.js';
import { MappedIndexWriter } from './mapped-index-writer.js';

export interface OpenIndexWritersOptions {
  /** The crawl directory embedded writers store beside (`<crawl>/index`). */
  crawlDir?: string;
  /** A parsed configuration instead of indexer.indexwriters.file. */
  config?: IndexWritersConfig;
  /** Open only the first writer with the searcher capability (the others are not opened, so not touched). */
  searcherOnly?: boolean;
}

export async function openIndexWriters(ctx: NutchContext, opts: OpenIndexWritersOptions = {}): Promise<IndexWriters> {
  const resolved = resolveIndexWriters(ctx, opts.config ?? readIndexWritersConfig(ctx.conf));
  const opened: { writerId: string; writer: IndexWriter }[] = [];
  try {
    for (const w of resolved.writers) {
      const ext = w.extension;
      const instance = await ctx.plugins.newInstance(ext);
      if (opts.searcherOnly && typeof instance.search !== 'function') continue;
      const writer = new MappedIndexWriter(instance, w.config.mapping);
      try {
        await writer.open({ writerId: w.config.id, parameters: w.parameters, crawlDir: opts.crawlDir });
      } catch (err) {
        throw new NutchError('NUTCH_INDEX_WRITER_FAILED', `Index writer ${w.config.id} (${ext.id}) failed to open: ${errorMessage(err)}`, { writer: w.config.id, extension: ext.id, plugin: ext.pluginId }, { cause: err });
      }
      opened.push({ writerId: w.config.id, writer });
      if (opts.searcherOnly) break;
    }
  } catch (err) {
    await new IndexWriters(opened).abort();
    throw err;
  }
  ctx.log.info(`IndexWriters: [${opened.map((w) => w.writerId).join(', ')}]`, { point: 'IndexWriter' });
  return new IndexWriters(opened);
}
