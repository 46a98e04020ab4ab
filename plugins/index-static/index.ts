/**
 * index-static, as Nutch's StaticFieldIndexer: adds the fields of index.static to every document.
 * Format `name:value[ value…],name2:value` with the separators index.static.fieldsep, .keysep and
 * .valuesep; an entry without exactly one key separator is logged once and ignored, as Nutch skips it.
 */
import type { IndexingFilter, NutchDocument, PluginContext } from '../../sdk/plugin.js';

export function parseStaticFields(spec: string, fieldSep: string, keySep: string, valueSep: string, warn: (entry: string) => void): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  if (!spec.trim()) return fields;
  for (const entry of spec.split(fieldSep)) {
    if (!entry.trim()) continue;
    const parts = entry.split(keySep);
    if (parts.length !== 2 || !parts[0]!.trim()) {
      warn(entry);
      continue;
    }
    const values = parts[1]!.trim().split(valueSep).map((v) => v.trim()).filter(Boolean);
    fields.set(parts[0]!.trim(), values);
  }
  return fields;
}

export class StaticFieldIndexer implements IndexingFilter {
  private readonly fields: Map<string, string[]>;

  constructor(ctx: PluginContext) {
    const c = ctx.conf;
    this.fields = parseStaticFields(c.getString('index.static', ''), c.getString('index.static.fieldsep', ','), c.getString('index.static.keysep', ':'), c.getString('index.static.valuesep', ' '), (entry) =>
      ctx.log.warn(`index.static: entry "${entry}" is not name${c.getString('index.static.keysep', ':')}value; ignored.`, { property: 'index.static' }));
  }

  filter(doc: NutchDocument): NutchDocument {
    for (const [name, values] of this.fields) (doc.fields[name] ??= []).push(...values);
    return doc;
  }
}
