/**
 * index-replace, as Nutch's ReplaceIndexer: regex replacements on the fields of each document before it
 * is written, configured by index.replace.regexp (replace-rules.ts). A set applies when its regex finds
 * a match in the document's `host` (hostmatch) or `url` (urlmatch) field — so index-basic must run
 * first, as in Nutch; host sets are applied before url sets. Each replacer rewrites every string value
 * of its field and puts the results in its target field (the same field, or `field:target`), replacing
 * what the target held; values that are not strings are dropped from the target, as Nutch drops them.
 */
import type { FieldValue, IndexingContext, IndexingFilter, NutchDocument, PluginContext } from '../../sdk/plugin.js';
import { parseReplaceRules, type MatchSet } from './replace-rules.js';

export class ReplaceIndexer implements IndexingFilter {
  private readonly sets: MatchSet[];

  constructor(ctx: PluginContext) {
    this.sets = parseReplaceRules(ctx.conf.getString('index.replace.regexp', ''));
    // Nutch keeps the two kinds in two maps and applies the host map first
    this.sets.sort((a, b) => (a.keyField === b.keyField ? 0 : a.keyField === 'host' ? -1 : 1));
  }

  filter(doc: NutchDocument, _ctx: IndexingContext): NutchDocument {
    for (const set of this.sets) {
      const keys = (doc.fields[set.keyField] ?? []).filter((v): v is string => typeof v === 'string');
      for (const key of keys) {
        set.key.lastIndex = 0;
        if (!set.key.test(key)) continue;
        for (const r of set.replacers) {
          const values = doc.fields[r.field];
          if (!values) continue;
          const replaced: FieldValue[] = values.filter((v): v is string => typeof v === 'string').map((v) => v.replace(r.regex, r.replacement));
          if (replaced.length) doc.fields[r.target] = replaced;
          else delete doc.fields[r.target];
        }
      }
    }
    return doc;
  }
}
