/**
 * The external sort's scratch file: sorted runs appended once and read back sequentially, rows in
 * a compact binary layout. The file is unlinked as soon as it is open (on POSIX systems), so
 * nothing is left behind when the process dies; where that is refused (Windows) it is removed on
 * close.
 *
 * Row layout: u32 byte length of the rest, then the key (u32 length + UTF-8) and per payload value
 * a tag byte: 0 null, 1 float64, 2 UTF-8 string (u32 length), 3 bytes (u32 length). These are the
 * value types the sort's callers store (as SQLite stored them before: strings pass through UTF-8,
 * numbers as doubles, bytes come back as a Buffer of their own).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { SortRow } from './external-sort.js';

const NULL = 0;
const NUMBER = 1;
const STRING = 2;
const BYTES = 3;
/** Bytes encoded before they are written out (runs are written in pieces of about this size). */
const WRITE_CHUNK = 1 << 20;

export class SpillFile {
  private readonly fd: number;
  /** Set where the open file could not be unlinked: removed by close(). */
  private readonly leftPath: string | null;
  private end = 0;
  private buf = Buffer.allocUnsafe(WRITE_CHUNK);
  private off = 0;

  constructor(dir = os.tmpdir()) {
    const file = path.join(dir, `nutch-sort-${process.pid}-${randomBytes(6).toString('hex')}`);
    this.fd = fs.openSync(file, 'wx+', 0o600);
    let left: string | null = null;
    try {
      fs.unlinkSync(file);
    } catch {
      left = file;
    }
    this.leftPath = left;
  }

  /** Appends rows (already sorted) and returns their byte range in the file. */
  writeRows(rows: readonly SortRow[]): { start: number; end: number } {
    const start = this.end;
    for (const row of rows) this.encode(row);
    this.drain();
    return { start, end: this.end };
  }

  private ensure(n: number): void {
    if (this.off + n <= this.buf.length) return;
    this.drain();
    if (n > this.buf.length) this.buf = Buffer.allocUnsafe(Math.max(n, WRITE_CHUNK));
  }

  private drain(): void {
    let done = 0;
    while (done < this.off) done += fs.writeSync(this.fd, this.buf, done, this.off - done, this.end + done);
    this.end += this.off;
    this.off = 0;
  }

  private encode(row: SortRow): void {
    // room for the whole row first (UTF-8 takes at most 3 bytes per UTF-16 unit), so it is never split by a drain
    let bound = 8 + row[0].length * 3;
    for (let i = 1; i < row.length; i++) {
      const v = row[i];
      bound += typeof v === 'string' ? 5 + v.length * 3 : v instanceof Uint8Array ? 5 + v.byteLength : 9;
    }
    this.ensure(bound);
    const buf = this.buf;
    const head = this.off;
    let off = this.putString(head + 4, row[0]);
    for (let i = 1; i < row.length; i++) {
      const v = row[i];
      if (v === null || v === undefined) {
        buf[off++] = NULL;
      } else if (typeof v === 'number') {
        buf[off] = NUMBER;
        buf.writeDoubleLE(v, off + 1);
        off += 9;
      } else if (typeof v === 'string') {
        buf[off] = STRING;
        off = this.putString(off + 1, v);
      } else if (v instanceof Uint8Array) {
        buf[off] = BYTES;
        buf.writeUInt32LE(v.byteLength, off + 1);
        buf.set(v, off + 5);
        off += 5 + v.byteLength;
      } else {
        throw new TypeError(`External sort rows hold strings, numbers, bytes or null; column ${i} is a ${typeof v}.`);
      }
    }
    buf.writeUInt32LE(off - head - 4, head);
    this.off = off;
  }

  /** Writes a length-prefixed UTF-8 string at `off`; returns the offset after it. */
  private putString(off: number, s: string): number {
    const n = this.buf.write(s, off + 4, 'utf8');
    this.buf.writeUInt32LE(n, off);
    return off + 4 + n;
  }

  /** A sequential reader of the rows in [start, end), reading pages of about pageBytes. */
  reader(start: number, end: number, pageBytes: number): SpillReader {
    return new SpillReader(this.fd, start, end, pageBytes);
  }

  close(): void {
    fs.closeSync(this.fd);
    if (this.leftPath) fs.rmSync(this.leftPath, { force: true });
  }
}

export class SpillReader {
  private buf: Buffer;
  private off = 0;
  private len = 0;
  /** File offset of buf[len]: the next byte to read. */
  private pos: number;

  constructor(private readonly fd: number, start: number, private readonly end: number, private readonly pageBytes: number) {
    this.pos = start;
    this.buf = Buffer.allocUnsafe(Math.min(pageBytes, Math.max(1, end - start)));
  }

  /** Up to `max` more rows (none at the end of the run). */
  next(max: number): SortRow[] {
    const out: SortRow[] = [];
    while (out.length < max) {
      if (this.len - this.off < 4 && !this.fill(4)) break;
      const size = this.buf.readUInt32LE(this.off);
      if (this.len - this.off < 4 + size && !this.fill(4 + size)) break;
      out.push(this.decode(this.off + 4, this.off + 4 + size));
      this.off += 4 + size;
      // a page's rows are decoded at once, not one read per row
      if (out.length >= max || this.len - this.off < 4) break;
    }
    return out;
  }

  /** Refills the page from the current row on, with at least `need` bytes; false at the end of the run. */
  private fill(need: number): boolean {
    const rest = this.len - this.off;
    const want = Math.min(Math.max(this.pageBytes, need), rest + (this.end - this.pos));
    if (want < need) return false;
    const next = want <= this.buf.length ? this.buf : Buffer.allocUnsafe(want);
    this.buf.copy(next, 0, this.off, this.len);
    let got = rest;
    while (got < want) {
      const n = fs.readSync(this.fd, next, got, want - got, this.pos);
      if (n === 0) throw new Error(`External sort scratch file ended early at byte ${this.pos}`);
      got += n;
      this.pos += n;
    }
    this.buf = next;
    this.off = 0;
    this.len = got;
    return true;
  }

  private decode(from: number, to: number): SortRow {
    const buf = this.buf;
    let p = from;
    const keyLen = buf.readUInt32LE(p);
    const row: unknown[] = [buf.toString('utf8', p + 4, p + 4 + keyLen)];
    p += 4 + keyLen;
    while (p < to) {
      const tag = buf[p++];
      if (tag === NULL) row.push(null);
      else if (tag === NUMBER) {
        row.push(buf.readDoubleLE(p));
        p += 8;
      } else {
        const n = buf.readUInt32LE(p);
        p += 4;
        // bytes get a Buffer of their own: the page is reused by the next fill
        row.push(tag === STRING ? buf.toString('utf8', p, p + n) : Buffer.from(buf.subarray(p, p + n)));
        p += n;
      }
    }
    return row as SortRow;
  }
}
