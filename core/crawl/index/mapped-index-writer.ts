/**
 * Applies one writer's field mapping before the writer sees a document, as Nutch's
 * IndexWriters.mapDocument: copy (values appended to each destination, never onto itself), then
 * rename, then remove. The original document is left untouched for the other writers.
 */
import type { IndexWriter, IndexWriterParams, SearchHit } from '../../extension-points/index-writer.js';
import type { NutchDocument } from '../../model/nutch-document.js';
import type { FieldMapping } from './index-writers-config.js';

export function mapDocument(doc: NutchDocument, mapping: FieldMapping): NutchDocument {
  const fields: NutchDocument['fields'] = {};
  for (const [k, v] of Object.entries(doc.fields)) fields[k] = [...v];
  for (const [source, dests] of mapping.copy) {
    const values = doc.fields[source];
    if (!values) continue;
    for (const dest of dests) if (dest !== source) (fields[dest] ??= []).push(...values);
  }
  for (const [source, dest] of mapping.rename) {
    const values = fields[source];
    if (!values) continue;
    delete fields[source];
    (fields[dest] ??= []).push(...values);
  }
  for (const name of mapping.remove) delete fields[name];
  return { ...doc, fields };
}

function isEmpty(m: FieldMapping): boolean {
  return m.copy.size === 0 && m.rename.size === 0 && m.remove.length === 0;
}

export class MappedIndexWriter implements IndexWriter {
  private readonly identity: boolean;

  constructor(readonly inner: IndexWriter, private readonly mapping: FieldMapping) {
    this.identity = isEmpty(mapping);
  }

  private map(doc: NutchDocument): NutchDocument {
    return this.identity ? doc : mapDocument(doc, this.mapping);
  }

  open(params: IndexWriterParams): Promise<void> {
    return this.inner.open(params);
  }

  write(doc: NutchDocument): Promise<void> {
    return this.inner.write(this.map(doc));
  }

  update(doc: NutchDocument): Promise<void> {
    return this.inner.update ? this.inner.update(this.map(doc)) : this.inner.write(this.map(doc));
  }

  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }

  commit(): Promise<void> {
    return this.inner.commit();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  abort(): Promise<void> {
    return this.inner.abort ? this.inner.abort() : this.inner.close();
  }

  get search(): ((query: string, opts: { limit: number }) => Promise<SearchHit[]>) | undefined {
    return this.inner.search ? (query, opts) => this.inner.search!(query, opts) : undefined;
  }
}
