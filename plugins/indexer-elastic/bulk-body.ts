/**
 * The Elasticsearch/OpenSearch `_bulk` NDJSON format: an action line (`index` or `delete`, with
 * `_index` and `_id`), then for `index` the document source; every line ends with a newline. A field
 * with one value becomes a scalar, several values an array, dates ISO-8601 strings, as Nutch's writer.
 */
import type { NutchDocument } from '../../sdk/plugin.js';

export function documentSource(doc: NutchDocument): Record<string, unknown> {
  const source: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(doc.fields)) {
    const list = values.map((v) => (v instanceof Date ? v.toISOString() : v));
    source[name] = list.length === 1 ? list[0] : list;
  }
  return source;
}

export function indexAction(index: string, id: string, doc: NutchDocument): string {
  return `${JSON.stringify({ index: { _index: index, _id: id } })}\n${JSON.stringify(documentSource(doc))}\n`;
}

export function deleteAction(index: string, id: string): string {
  return `${JSON.stringify({ delete: { _index: index, _id: id } })}\n`;
}
