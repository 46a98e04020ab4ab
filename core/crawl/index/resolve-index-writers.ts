/**
 * Which writers of the index-writers configuration run, and on which IndexWriter extension — checked
 * before anything is read, so `nutch index` and `nutch crawl -i` fail at once (not after a whole round)
 * when none can run. As Nutch's IndexWriters: a writer whose plugin is not active is skipped (Nutch's
 * stock index-writers.xml lists seven writers and plugin.includes picks among them). A writer of a
 * Nutch plugin nutch-ts lacks, when plugin.includes named that plugin and a stand-in listed for it is
 * active, runs on the stand-in with its field mapping and without its
 * parameters, which belong to the missing plugin. A name no plugin declares is a typo: an error.
 */
import { NutchError } from '../../errors.js';
import { ExtensionPoints } from '../../extension-points/extension-point.js';
import type { ExtensionDescriptor } from '../../plugin/plugin-descriptor.js';
import type { IndexWriter } from '../../extension-points/index-writer.js';
import { replacementForClass, replacementForPlugin, replacementName } from '../../plugin/nutch-plugin-replacements.js';
import type { NutchContext } from '../context.js';
import { readIndexWritersConfig, type IndexWriterConfig, type IndexWritersConfig } from './index-writers-config.js';

export interface ResolvedIndexWriter {
  config: IndexWriterConfig;
  extension: ExtensionDescriptor<IndexWriter>;
  parameters: Record<string, string>;
}

export interface ResolvedIndexWriters {
  file: string;
  writers: ResolvedIndexWriter[];
  /** Writers left out, each with the reason. */
  skipped: string[];
}

export function resolveIndexWriters(ctx: NutchContext, config: IndexWritersConfig = readIndexWritersConfig(ctx.conf)): ResolvedIndexWriters {
  const point = ExtensionPoints.IndexWriter;
  const out: ResolvedIndexWriters = { file: config.file, writers: [], skipped: [] };
  for (const w of config.writers) {
    const ext = ctx.plugins.findExtension(point, w.extension);
    if (ext) {
      out.writers.push({ config: w, extension: ext, parameters: w.parameters });
      continue;
    }
    const owner = ctx.plugins.descriptors.find((d) => d.extensions.some((e) => e.point === point.id && (e.id === w.extension || e.aliases.includes(w.extension))));
    if (owner) {
      out.skipped.push(`writer ${w.id} (${w.where}): plugin ${owner.id} is not active (${ctx.plugins.whyUnavailable(w.extension)})`);
      continue;
    }
    const nutch = replacementForClass(w.extension) ?? replacementForPlugin(w.extension);
    if (nutch) {
      const named = ctx.plugins.unmatchedIncludes.find((u) => u.replacement === nutch);
      const standIn = named?.activate.map((id) => ctx.plugins.getExtensions(point).find((e) => e.pluginId === id)).find((e) => e !== undefined);
      if (standIn) {
        ctx.log.info(`Index writer ${w.id} (${w.where}) is for Nutch's ${replacementName(nutch)}, which nutch-ts does not have; it writes to ${standIn.id} instead (its parameters are not passed).`, { writer: w.id });
        out.writers.push({ config: w, extension: standIn, parameters: {} });
      } else {
        out.skipped.push(`writer ${w.id} (${w.where}): Nutch's ${replacementName(nutch)} is not in nutch-ts (${nutch.advice})`);
      }
      continue;
    }
    throw new NutchError(
      'NUTCH_INDEX_WRITERS_INVALID',
      `${w.where}${w.pointer.startsWith('/') ? '/extension' : ' class'} "${w.extension}" (writer ${w.id}) is not an IndexWriter extension of any plugin (${ctx.plugins.whyUnavailable(w.extension)}). IndexWriter extensions: ${indexWriterIds(ctx).join(', ') || 'none'}.`,
      { file: config.file, pointer: `${w.pointer}/extension`, writer: w.id },
    );
  }
  for (const s of out.skipped) ctx.log.info(`Index writer skipped: ${s}`);
  if (out.writers.length === 0) {
    throw new NutchError(
      'NUTCH_INDEX_WRITERS_INVALID',
      `${config.file}: none of its index writers can run${out.skipped.length ? `: ${out.skipped.join('; ')}` : ' (it lists none)'}. Add the plugin of one to plugin.includes (indexer-sqlite for the embedded index that nutch search reads), or list an active IndexWriter (${ctx.plugins.getExtensions(ExtensionPoints.IndexWriter.id).map((e) => e.id).join(', ') || 'none active'}).`,
      { file: config.file },
    );
  }
  return out;
}

function indexWriterIds(ctx: NutchContext): string[] {
  return ctx.plugins.descriptors.flatMap((d) => d.extensions.filter((e) => e.point === ExtensionPoints.IndexWriter.id).map((e) => e.id));
}
