/**
 * Bulk loads through `COPY … FROM STDIN (FORMAT binary)`: one round trip and no per-row parsing on
 * the server, values (bytea above all) sent as they are instead of escaped. Rows are written into
 * ~1 MB chunks by a CopyEncoder (one buffer per chunk, not one per field: the encoder was a third of
 * inject's CPU when it allocated per field), so memory stays bounded by the batch being written.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';

export type CopyType = 'text' | 'bytea' | 'int2' | 'int4' | 'int8' | 'float8' | 'bool';
export type CopyValue = string | number | boolean | Uint8Array | null;

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const CHUNK = 1 << 20;

/** Encodes rows of fixed column types into COPY binary chunks; chunks() adds the header and trailer. */
export class CopyEncoder {
  private done: Buffer[] = [];
  private buf = Buffer.allocUnsafe(CHUNK);
  private off = 0;
  /** Bytes encoded so far. */
  bytes = 0;
  rows = 0;

  /**
   * `prefix`: values written at the start of every row, before the row's own (a store id the
   * caller's rows do not carry); `types` covers the prefix's columns too.
   */
  constructor(private readonly types: readonly CopyType[], private readonly prefix: readonly CopyValue[] = []) {
    SIGNATURE.copy(this.buf);
    this.buf.fill(0, SIGNATURE.length, SIGNATURE.length + 8); // flags 0, no header extension
    this.off = SIGNATURE.length + 8;
  }

  /** Room for n more bytes: the current chunk is closed when full (a larger value gets a chunk of its own size). */
  private ensure(n: number): void {
    if (this.off + n <= this.buf.length) return;
    if (this.off > 0) this.done.push(this.buf.subarray(0, this.off));
    this.bytes += this.off;
    this.buf = Buffer.allocUnsafe(Math.max(CHUNK, n));
    this.off = 0;
  }

  add(row: readonly CopyValue[]): void {
    const types = this.types;
    const prefix = this.prefix;
    const p = prefix.length;
    this.ensure(2);
    this.buf.writeInt16BE(types.length, this.off);
    this.off += 2;
    for (let i = 0; i < types.length; i++) {
      const v = (i < p ? prefix[i] : row[i - p]) ?? null;
      if (v === null) {
        this.ensure(4);
        this.buf.writeInt32BE(-1, this.off);
        this.off += 4;
        continue;
      }
      switch (types[i]) {
        case 'text': {
          const s = v as string;
          this.ensure(4 + s.length * 3);
          const n = this.buf.write(s, this.off + 4, 'utf8');
          this.buf.writeInt32BE(n, this.off);
          this.off += 4 + n;
          break;
        }
        case 'bytea': {
          const b = v as Uint8Array;
          this.ensure(4 + b.byteLength);
          this.buf.writeInt32BE(b.byteLength, this.off);
          this.buf.set(b, this.off + 4);
          this.off += 4 + b.byteLength;
          break;
        }
        case 'int2': this.fixed(2); this.buf.writeInt16BE(v as number, this.off - 2); break;
        case 'int4': this.fixed(4); this.buf.writeInt32BE(v as number, this.off - 4); break;
        case 'int8': this.fixed(8); this.buf.writeBigInt64BE(BigInt(v as number), this.off - 8); break;
        case 'float8': this.fixed(8); this.buf.writeDoubleBE(v as number, this.off - 8); break;
        case 'bool': this.fixed(1); this.buf[this.off - 1] = v ? 1 : 0; break;
      }
    }
    this.rows++;
  }

  /** Writes the length word of a fixed-size value and reserves its bytes (filled by the caller). */
  private fixed(n: number): void {
    this.ensure(4 + n);
    this.buf.writeInt32BE(n, this.off);
    this.off += 4 + n;
  }

  /** The chunks completed so far (handed out once): a stream sends them while later rows are encoded. */
  drain(): Buffer[] {
    const out = this.done;
    this.done = [];
    return out;
  }

  get completedChunks(): number {
    return this.done.length;
  }

  /** The whole COPY stream: the chunks so far and the trailer. The encoder is spent afterwards. */
  chunks(): Buffer[] {
    this.ensure(2);
    this.buf.writeInt16BE(-1, this.off);
    this.off += 2;
    this.done.push(this.buf.subarray(0, this.off));
    this.bytes += this.off;
    this.buf = Buffer.alloc(0);
    this.off = 0;
    return this.done;
  }
}

/** COPYs encoded chunks into `table (columns)` on the caller's client (inside its transaction, if any). */
export async function copyChunks(client: pg.PoolClient | pg.Client, table: string, columns: readonly string[], chunks: readonly Buffer[]): Promise<void> {
  // loaded at the first COPY, not at start-up (see pg-target.ts)
  const { from: copyFrom } = await import('pg-copy-streams');
  const sink = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN (FORMAT binary)`));
  await pipeline(Readable.from(chunks), sink);
}

/** COPYs rows into `table (columns)` on the caller's client (inside its transaction, if any). */
export async function copyRows(client: pg.PoolClient | pg.Client, table: string, columns: readonly string[], types: readonly CopyType[], rows: Iterable<readonly CopyValue[]>): Promise<void> {
  const enc = new CopyEncoder(types);
  for (const row of rows) enc.add(row);
  await copyChunks(client, table, columns, enc.chunks());
}
