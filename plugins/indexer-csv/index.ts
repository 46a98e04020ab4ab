/**
 * indexer-csv, as Nutch's CSVIndexWriter: one row per added document with the columns named by
 * `fields` (default id,title,content) to `<outpath>/<filename>` (defaults `<crawl>/csvindexwriter`,
 * `nutch.csv`). Parameters as Nutch's: separator, valuesep, quotechar, escapechar, maxfieldlength,
 * maxfieldvalues, header. Deletes are ignored (Nutch's writer cannot delete rows). Rows go to a
 * spool file that replaces the output on commit(), so a failed run leaves the previous file.
 */
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NutchError, type IndexWriter, type IndexWriterParams, type NutchDocument } from '../../sdk/plugin.js';

function int(value: string | undefined, fallback: number, name: string, writerId: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new NutchError('NUTCH_INDEX_WRITERS_INVALID', `indexer-csv writer ${writerId}: parameter "${name}" must be an integer, got "${value}".`, { writer: writerId });
  return n;
}

export class CSVIndexWriter implements IndexWriter {
  private fields: string[] = ['id', 'title', 'content'];
  private separator = ',';
  private valuesep = '|';
  private quote = '"';
  private escape = '"';
  private maxFieldLength = 4096;
  private maxFieldValues = 12;
  private header = true;
  private file = '';
  private spool = '';
  private rows: string[] = [];
  private started = false;

  async open(params: IndexWriterParams): Promise<void> {
    const p = params.parameters;
    const id = params.writerId;
    if (p.fields) this.fields = p.fields.split(',').map((f) => f.trim()).filter(Boolean);
    this.separator = p.separator ?? this.separator;
    this.valuesep = p.valuesep ?? this.valuesep;
    this.quote = p.quotechar ?? this.quote;
    this.escape = p.escapechar ?? this.quote;
    this.maxFieldLength = int(p.maxfieldlength, this.maxFieldLength, 'maxfieldlength', id);
    this.maxFieldValues = int(p.maxfieldvalues, this.maxFieldValues, 'maxfieldvalues', id);
    this.header = p.header !== 'false';
    const outpath = p.outpath ?? (params.crawlDir ? join(params.crawlDir, 'csvindexwriter') : undefined);
    if (!outpath) throw new NutchError('NUTCH_INDEX_WRITERS_INVALID', `indexer-csv writer ${id}: set the "outpath" parameter in index-writers.json.`, { writer: id });
    mkdirSync(outpath, { recursive: true });
    this.file = join(outpath, p.filename ?? 'nutch.csv');
    this.spool = `${this.file}.${process.pid}.inprogress`;
  }

  private cell(values: unknown[] | undefined, limit = true): string {
    const list = (values ?? []).slice(0, this.maxFieldValues < 0 || !limit ? undefined : this.maxFieldValues).map((v) => {
      const s = v instanceof Date ? v.toISOString() : String(v);
      return limit && this.maxFieldLength >= 0 && s.length > this.maxFieldLength ? s.slice(0, this.maxFieldLength) : s;
    });
    const s = list.join(this.valuesep);
    const needsQuote = s.includes(this.separator) || s.includes(this.quote) || /[\r\n]/.test(s);
    if (!needsQuote) return s;
    return this.quote + s.split(this.quote).join(this.escape + this.quote) + this.quote;
  }

  private start(): void {
    if (this.started) return;
    writeFileSync(this.spool, this.header ? this.fields.map((f) => this.cell([f], false)).join(this.separator) + '\r\n' : '');
    this.started = true;
  }

  async write(doc: NutchDocument): Promise<void> {
    this.start();
    this.rows.push(this.fields.map((f) => this.cell(doc.fields[f])).join(this.separator) + '\r\n');
    if (this.rows.length >= 500) this.flush();
  }

  private flush(): void {
    if (this.rows.length) appendFileSync(this.spool, this.rows.join(''));
    this.rows = [];
  }

  async delete(_key: string): Promise<void> {}

  async commit(): Promise<void> {
    this.start();
    this.flush();
    renameSync(this.spool, this.file);
    this.started = false;
  }

  async close(): Promise<void> {
    if (this.started) await this.commit();
  }

  async abort(): Promise<void> {
    this.rows = [];
    this.started = false;
    rmSync(this.spool, { force: true });
  }
}
