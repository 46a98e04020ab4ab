/**
 * What one NutchDocument or delete becomes in an OpenSearch `_bulk` request, as Nutch's
 * OpenSearch1xIndexWriter builds it: an `index` action with `_index` and `_id` followed by the source,
 * where a field with one value is a scalar, several values an array, a Date an ISO-8601 instant.
 */
import type { NutchDocument } from '../../sdk/plugin.js';

export type BulkLine = Record<string, unknown>;

export interface BulkEntry {
  id: string;
  /** The action line, then the source line for `index`. */
  lines: BulkLine[];
  /** Bytes the entry adds to the request body (for max.bulk.size). */
  bytes: number;
}

function sourceOf(doc: NutchDocument): BulkLine {
  const source: BulkLine = {};
  for (const [name, values] of Object.entries(doc.fields)) {
    if (!values.length) continue;
    const json = values.map((v) => (v instanceof Date ? v.toISOString() : v));
    source[name] = json.length === 1 ? json[0] : json;
  }
  return source;
}

function entry(id: string, lines: BulkLine[]): BulkEntry {
  return { id, lines, bytes: lines.reduce((n, l) => n + Buffer.byteLength(JSON.stringify(l)) + 1, 0) };
}

export function indexEntry(index: string, id: string, doc: NutchDocument): BulkEntry {
  return entry(id, [{ index: { _index: index, _id: id } }, sourceOf(doc)]);
}

export function deleteEntry(index: string, id: string): BulkEntry {
  return entry(id, [{ delete: { _index: index, _id: id } }]);
}
