/**
 * A NutchDocument as a Solr JSON input document, as Nutch's SolrIndexWriter builds its
 * SolrInputDocument: one key per field, a list when the field has several values, dates as ISO-8601
 * instants (Solr's date format), and `content` / `title` stripped of the code points Solr refuses
 * (SolrUtils.stripNonCharCodepoints: U+FFFE/U+FFFF of every plane, U+FDD0–U+FDEF, lone surrogates).
 */
import type { NutchDocument } from '../../sdk/plugin.js';

const STRIPPED_FIELDS = new Set(['content', 'title']);

export function stripNonCharCodepoints(s: string): string {
  // Lone surrogates, U+FDD0–U+FDEF, and U+xxFFFE / U+xxFFFF on any plane (a surrogate pair DBxx DFFE/DFFF).
  return s.replace(/[\uD800-\uDBFF][\uDFFE\uDFFF]|[\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, (m) => {
    if (m.length === 2) return (m.codePointAt(0)! & 0xfffe) === 0xfffe ? '' : m;
    return '';
  });
}

export function solrInputDocument(doc: NutchDocument, weightField: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(doc.fields)) {
    const list = values.map((v) => {
      if (v instanceof Date) return v.toISOString();
      if (typeof v === 'string' && STRIPPED_FIELDS.has(name)) return stripNonCharCodepoints(v);
      return v;
    });
    out[name] = list.length === 1 ? list[0] : list;
  }
  // Solr dropped index-time boosts (7.0); Nutch writes the document's weight into a field instead.
  if (weightField) out[weightField] = doc.weight;
  return out;
}

/** Nutch escapes `!`, the separator of SolrCloud's compositeId router, in the ids it deletes. */
export function deleteId(key: string): string {
  return key.replace(/!/g, '\\!');
}
