/**
 * indexer-jsonl: one JSON object per index action, `{"action":"add","id":…,"boost":…,"fields":{…}}`
 * or `{"action":"delete","id":…}`. Parameters: `path` (default `<crawl>/index.jsonl`) and `mode`
 * (`append`, the default, or `overwrite`). Actions are spooled to `<path>.<pid>.inprogress` and reach
 * `path` only on commit(), so a failed run (abort) leaves the file as it was.
 */
import { appendFileSync, createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { NutchError, type IndexWriter, type IndexWriterParams, type NutchDocument } from '../../sdk/plugin.js';

const FLUSH_BYTES = 1 << 20;

export class JsonlIndexWriter implements IndexWriter {
  private path = '';
  private spool = '';
  private mode: 'append' | 'overwrite' = 'append';
  private buffer: string[] = [];
  private bytes = 0;
  private spooled = false;

  async open(params: IndexWriterParams): Promise<void> {
    const p = params.parameters;
    const path = p.path ?? (params.crawlDir ? join(params.crawlDir, 'index.jsonl') : undefined);
    if (!path) throw new NutchError('NUTCH_INDEX_WRITERS_INVALID', `indexer-jsonl writer ${params.writerId}: set the "path" parameter in index-writers.json (or give the stage a crawl directory).`, { writer: params.writerId });
    if (p.mode !== undefined && p.mode !== 'append' && p.mode !== 'overwrite') throw new NutchError('NUTCH_INDEX_WRITERS_INVALID', `indexer-jsonl writer ${params.writerId}: parameter "mode" must be append or overwrite, got "${p.mode}".`, { writer: params.writerId });
    this.mode = (p.mode as 'append' | 'overwrite' | undefined) ?? 'append';
    this.path = path;
    this.spool = `${path}.${process.pid}.inprogress`;
    mkdirSync(dirname(path), { recursive: true });
  }

  private push(line: string): void {
    this.buffer.push(line);
    this.bytes += line.length;
    if (this.bytes >= FLUSH_BYTES) this.flush();
  }

  private flush(): void {
    if (!this.buffer.length) return;
    appendFileSync(this.spool, this.buffer.join(''));
    this.spooled = true;
    this.buffer = [];
    this.bytes = 0;
  }

  async write(doc: NutchDocument): Promise<void> {
    const id = doc.fields.id?.[0] ?? doc.fields.url?.[0];
    this.push(JSON.stringify({ action: 'add', id, boost: doc.weight, fields: doc.fields }) + '\n');
  }

  async update(doc: NutchDocument): Promise<void> {
    const id = doc.fields.id?.[0] ?? doc.fields.url?.[0];
    this.push(JSON.stringify({ action: 'update', id, boost: doc.weight, fields: doc.fields }) + '\n');
  }

  async delete(key: string): Promise<void> {
    this.push(JSON.stringify({ action: 'delete', id: key }) + '\n');
  }

  async commit(): Promise<void> {
    this.flush();
    if (!this.spooled) {
      if (this.mode === 'overwrite' && !existsSync(this.path)) appendFileSync(this.path, '');
      return;
    }
    if (this.mode === 'overwrite') renameSync(this.spool, this.path);
    else {
      await pipeline(createReadStream(this.spool), createWriteStream(this.path, { flags: 'a' }));
      rmSync(this.spool, { force: true });
    }
    this.spooled = false;
  }

  async close(): Promise<void> {
    await this.commit();
  }

  async abort(): Promise<void> {
    this.buffer = [];
    this.bytes = 0;
    rmSync(this.spool, { force: true });
    this.spooled = false;
  }
}
