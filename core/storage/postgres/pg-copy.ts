/**
 * Bulk loads through `COPY … FROM STDIN (FORMAT binary)`: one round trip and no per-row parsing on
 * the server, values (bytea above all) sent as they are instead of escaped. Rows are encoded lazily
 * into ~1 MB chunks, so memory stays bounded by the batch being written.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export type CopyType = 'text' | 'bytea' | 'int2' | 'int4' | 'int8' | 'float8' | 'bool';
export type CopyValue = string | number | boolean | Uint8Array | null;

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const CHUNK = 1 << 20;

function header(): Buffer {
  const b = Buffer.alloc(SIGNATURE.length + 8);
  SIGNATURE.copy(b);
  return b; // flags 0, no header extension
}

function field(type: CopyType, v: CopyValue): Buffer[] {
  const len = Buffer.allocUnsafe(4);
  if (v === null) {
    len.writeInt32BE(-1);
    return [len];
  }
  let data: Buffer;
  switch (type) {
    case 'text': data = Buffer.from(v as string, 'utf8'); break;
    case 'bytea': data = Buffer.isBuffer(v) ? v : Buffer.from((v as Uint8Array).buffer, (v as Uint8Array).byteOffset, (v as Uint8Array).byteLength); break;
    case 'int2': data = Buffer.allocUnsafe(2); data.writeInt16BE(v as number); break;
    case 'int4': data = Buffer.allocUnsafe(4); data.writeInt32BE(v as number); break;
    case 'int8': data = Buffer.allocUnsafe(8); data.writeBigInt64BE(BigInt(v as number)); break;
    case 'float8': data = Buffer.allocUnsafe(8); data.writeDoubleBE(v as number); break;
    case 'bool': data = Buffer.from([v ? 1 : 0]); break;
  }
  len.writeInt32BE(data.length);
  return [len, data];
}

function* encode(types: readonly CopyType[], rows: Iterable<readonly CopyValue[]>): Generator<Buffer> {
  let parts: Buffer[] = [header()];
  let size = 0;
  const count = Buffer.allocUnsafe(2);
  count.writeInt16BE(types.length);
  for (const row of rows) {
    parts.push(count);
    for (let i = 0; i < types.length; i++) {
      for (const b of field(types[i]!, row[i] ?? null)) {
        parts.push(b);
        size += b.length;
      }
    }
    if (size >= CHUNK) {
      yield Buffer.concat(parts);
      parts = [];
      size = 0;
    }
  }
  const trailer = Buffer.allocUnsafe(2);
  trailer.writeInt16BE(-1);
  parts.push(trailer);
  yield Buffer.concat(parts);
}

/** COPYs rows into `table (columns)` on the caller's client (inside its transaction, if any). */
export async function copyRows(client: pg.PoolClient | pg.Client, table: string, columns: readonly string[], types: readonly CopyType[], rows: Iterable<readonly CopyValue[]>): Promise<void> {
  const sink = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN (FORMAT binary)`));
  await pipeline(Readable.from(encode(types, rows)), sink);
}
