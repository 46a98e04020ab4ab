/**
 * Reads a query's rows through `COPY (query) TO STDOUT (FORMAT binary)`: one statement streams the
 * whole result, the server plans it once and pushes rows as fast as the reader takes them (the
 * socket is paused while the reader is busy, so memory stays at a few chunks), and each field is
 * read straight from the bytes (a float8 is readDoubleBE, not parseFloat of its text; no row object
 * per row). Keyset pages (one planned query per storage.batch.size rows, every field parsed from
 * text) cost a scan of 1,000,000 CrawlDb rows several times the client and server CPU.
 */
import type pg from 'pg';
import type { CopyType } from './pg-copy.js';

/** COPY binary's header: signature (11 bytes), flags (4), header extension length (4). */
const HEADER = 19;

/** Decodes COPY binary tuples of known column types from the chunks the server sends. */
export class CopyOutDecoder {
  /** Bytes received and not decoded yet (at most a chunk and a partial row). */
  private buf: Buffer = Buffer.alloc(0);
  private off = 0;
  private headerDone = false;
  /** The trailer (-1 field count) was seen. */
  done = false;

  constructor(private readonly types: readonly CopyType[]) {}

  /** Adds a chunk; rows are decoded by take(). */
  push(chunk: Buffer): void {
    this.buf = this.off < this.buf.length ? Buffer.concat([this.buf.subarray(this.off), chunk]) : chunk;
    this.off = 0;
  }

  /** Up to `max` complete rows from the bytes received (none when the rest is a partial row). */
  take(max: number): unknown[][] {
    const out: unknown[][] = [];
    const buf = this.buf;
    let off = this.off;
    if (!this.headerDone) {
      if (buf.length - off < HEADER) return out;
      off += HEADER + buf.readInt32BE(off + 15);
      this.headerDone = true;
    }
    const types = this.types;
    const n = types.length;
    while (!this.done && out.length < max) {
      if (off + 2 > buf.length) break;
      const fields = buf.readInt16BE(off);
      if (fields === -1) {
        this.done = true;
        off += 2;
        break;
      }
      // a row is decoded only once all of it has arrived
      let end = off + 2;
      let complete = true;
      for (let i = 0; i < fields; i++) {
        if (end + 4 > buf.length) { complete = false; break; }
        const len = buf.readInt32BE(end);
        end += 4 + (len > 0 ? len : 0);
        if (end > buf.length) { complete = false; break; }
      }
      if (!complete) break;
      if (fields !== n) throw new Error(`COPY row has ${fields} fields, expected ${n}`);
      const row = new Array<unknown>(n);
      let p = off + 2;
      for (let i = 0; i < n; i++) {
        const len = buf.readInt32BE(p);
        p += 4;
        if (len < 0) {
          row[i] = null;
          continue;
        }
        switch (types[i]) {
          case 'text': row[i] = buf.toString('utf8', p, p + len); break;
          // a copy: a view would keep the whole chunk alive as long as the value
          case 'bytea': row[i] = Buffer.from(buf.subarray(p, p + len)); break;
          case 'int2': row[i] = buf.readInt16BE(p); break;
          case 'int4': row[i] = buf.readInt32BE(p); break;
          case 'int8': row[i] = Number(buf.readBigInt64BE(p)); break;
          case 'float8': row[i] = buf.readDoubleBE(p); break;
          case 'bool': row[i] = buf[p] !== 0; break;
        }
        p += len;
      }
      out.push(row);
      off = end;
    }
    this.off = off;
    return out;
  }
}

/**
 * Streams the rows of `select` (a SELECT whose columns have `types`; COPY takes no parameters, so any
 * value in it must be a literal: see sqlLiteral) on `client`, in batches of at most `batchRows`
 * decoded rows (what is in memory at a time: a batch, and the network chunk it came from). The caller
 * owns the client: a scan stopped early must not hand it back to the pool as it is (the COPY is
 * still running on it); see PgKeyedStore.
 */
export async function* copyOut(client: pg.PoolClient, select: string, types: readonly CopyType[], batchRows: number): AsyncGenerator<unknown[][]> {
  const { to: copyTo } = await import('pg-copy-streams');
  const stream = client.query(copyTo(`COPY (${select}) TO STDOUT (FORMAT binary)`));
  const decoder = new CopyOutDecoder(types);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    decoder.push(chunk);
    for (let rows = decoder.take(batchRows); rows.length > 0; rows = decoder.take(batchRows)) yield rows;
  }
  if (!decoder.done) throw new Error('COPY output ended without its trailer');
}

/** A string as an SQL literal, whatever standard_conforming_strings says (an E'' string: backslash and quote escaped). */
export function sqlLiteral(s: string): string {
  return `E'${s.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}
