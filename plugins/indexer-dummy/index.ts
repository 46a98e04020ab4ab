/**
 * indexer-dummy, as Nutch's DummyIndexWriter: writes one line per action to the file `path`
 * (`add\t<id>`, `update\t<id>`, and `delete\t<key>` only when the `delete` parameter is true). The
 * file is truncated on open, as Nutch's is; lines are written as they come, for tests and debugging.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NutchError, type IndexWriter, type IndexWriterParams, type NutchDocument } from '../../sdk/plugin.js';

export class DummyIndexWriter implements IndexWriter {
  private fd: number | null = null;
  private delete_ = false;

  async open(params: IndexWriterParams): Promise<void> {
    const path = params.parameters.path ?? (params.crawlDir ? join(params.crawlDir, 'dummy-index.txt') : undefined);
    if (!path) throw new NutchError('NUTCH_INDEX_WRITERS_INVALID', `indexer-dummy writer ${params.writerId}: set the "path" parameter in index-writers.json.`, { writer: params.writerId });
    this.delete_ = params.parameters.delete === 'true';
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'w');
  }

  private line(s: string): void {
    if (this.fd === null) throw new NutchError('NUTCH_INDEX_WRITER_FAILED', 'indexer-dummy: write after close.');
    writeSync(this.fd, s + '\n');
  }

  async write(doc: NutchDocument): Promise<void> {
    this.line(`add\t${String(doc.fields.id?.[0] ?? '')}`);
  }

  async update(doc: NutchDocument): Promise<void> {
    this.line(`update\t${String(doc.fields.id?.[0] ?? '')}`);
  }

  async delete(key: string): Promise<void> {
    if (this.delete_) this.line(`delete\t${key}`);
  }

  async commit(): Promise<void> {}

  async close(): Promise<void> {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
