/**
 * A zip reader for the packaged document formats (OOXML, ODF, EPUB), built to survive hostile input:
 * the central directory is read from the end of the file; an entry is inflated in small input steps
 * with fflate's streaming Inflate, so a zip bomb is stopped as soon as the document's expanded bytes
 * pass `tika.zip.max.bytes`, or, past RATIO_THRESHOLD_BYTES, `tika.zip.max.ratio` times the compressed
 * bytes read (Tika's SecureContentHandler rule: a bomb is caught after a few MB of inflating, not 64,
 * so its garbage never fills a parse worker's malloc arenas) — its declared sizes are never trusted. Parts are handed to the XML
 * reader as text pieces decoded while inflating (textPieces), so a large part costs the memory of a
 * piece, not of the part. Encrypted entries, ZIP64 and cut archives are DocumentErrors with the reason.
 */
import { Inflate } from 'fflate';
import { DocumentError } from './document.js';

interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  localHeaderOffset: number;
}

/** Compressed bytes fed to the inflater per step: bounds what one step can expand to (~1 MB at deflate's 1032:1). */
const INFLATE_STEP = 1024;
const MAX_ENTRIES = 20_000;
/** Bytes of an entry handed on at once: inflated output is gathered to about this size before decoding. */
const PIECE_BYTES = 64 * 1024;
/** Expanded bytes after which the expansion ratio is checked (Tika's SecureContentHandler threshold: 1 M characters). */
export const RATIO_THRESHOLD_BYTES = 1024 * 1024;

export interface ZipLimits {
  /** Bytes the document may expand to over all entries read (`tika.zip.max.bytes`). */
  maxExpandedBytes: number;
  /** Expanded bytes per compressed byte read, checked past RATIO_THRESHOLD_BYTES (`tika.zip.max.ratio`); -1: unchecked. */
  maxExpansionRatio: number;
}

export class ZipArchive {
  private readonly entries = new Map<string, ZipEntry>();
  private readonly view: DataView;
  /** Expanded bytes left for this document, over all entries read. */
  private budget: number;
  private expanded = 0;
  /** Compressed bytes handed to the inflater so far, over all entries read. */
  private compressedRead = 0;

  constructor(private readonly bytes: Uint8Array, private readonly limits: ZipLimits) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.budget = limits.maxExpandedBytes;
    this.readDirectory();
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry's bytes, or null when the archive has no such entry. */
  read(name: string): Uint8Array | null {
    const entry = this.entries.get(name);
    return entry ? concat([...this.pieces(entry)]) : null;
  }

  /** The entry as UTF-8 text (a BOM dropped), or null when missing. */
  readText(name: string): string | null {
    const bytes = this.read(name);
    return bytes === null ? null : new TextDecoder('utf-8').decode(bytes);
  }

  /**
   * The entry as UTF-8 text (a BOM dropped) in pieces decoded as the entry is inflated, or null when
   * missing: a part that expands to tens of MB (a Word body, a worksheet) is never held whole, as
   * bytes or as a string, only the piece being parsed is. Errors (bomb, truncation) are thrown while
   * iterating, where the archive fails.
   */
  textPieces(name: string): Iterable<string> | null {
    const entry = this.entries.get(name);
    return entry ? this.decodePieces(entry) : null;
  }

  private *decodePieces(entry: ZipEntry): Generator<string> {
    const decoder = new TextDecoder('utf-8');
    for (const bytes of this.pieces(entry)) {
      // stream: a UTF-8 sequence cut between two pieces is completed by the next one
      const text = decoder.decode(bytes, { stream: true });
      if (text) yield text;
    }
    const tail = decoder.decode();
    if (tail) yield tail;
  }

  /** The entry's bytes in pieces of about PIECE_BYTES, inflated step by step within the budget. */
  private *pieces(entry: ZipEntry): Generator<Uint8Array> {
    const { name } = entry;
    if (entry.flags & 0x1) throw new DocumentError(`the archive entry ${name} is encrypted`, 'encrypted');
    const p = entry.localHeaderOffset;
    if (p + 30 > this.bytes.length || this.view.getUint32(p, true) !== 0x04034b50) throw new DocumentError(`the archive entry ${name} has no local header (cut or corrupt file)`, 'truncated');
    const start = p + 30 + this.view.getUint16(p + 26, true) + this.view.getUint16(p + 28, true);
    const end = start + entry.compressedSize;
    if (end > this.bytes.length) throw new DocumentError(`the archive entry ${name} runs past the end of the file (truncated)`, 'truncated');
    const data = this.bytes.subarray(start, end);
    if (entry.method === 0) {
      this.compressedRead += data.length;
      this.spend(data.length, name);
      for (let i = 0; i < data.length; i += PIECE_BYTES) yield data.subarray(i, Math.min(i + PIECE_BYTES, data.length));
      return;
    }
    if (entry.method !== 8) throw new DocumentError(`the archive entry ${name} uses compression method ${entry.method}; only stored and deflate are read`, 'invalid');
    if (data.length === 0) throw new DocumentError(`the archive entry ${name} is empty`, 'truncated');
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    let failure: unknown = null;
    const inflater = new Inflate((chunk) => {
      if (failure) return;
      try {
        this.spend(chunk.length, name);
        pending.push(chunk);
        pendingBytes += chunk.length;
      } catch (err) {
        failure = err;
      }
    });
    for (let i = 0; i < data.length; i += INFLATE_STEP) {
      const stepEnd = Math.min(i + INFLATE_STEP, data.length);
      this.compressedRead += stepEnd - i;
      try {
        inflater.push(data.subarray(i, stepEnd), stepEnd === data.length);
      } catch (err) {
        throw new DocumentError(`the archive entry ${name} does not inflate (${(err as Error).message || err}): corrupt or truncated`, 'truncated');
      }
      if (failure) throw failure;
      if (pendingBytes >= PIECE_BYTES || (stepEnd === data.length && pendingBytes > 0)) {
        const piece = concat(pending);
        pending = [];
        pendingBytes = 0;
        yield piece;
      }
    }
  }

  private spend(n: number, name: string): void {
    this.budget -= n;
    this.expanded += n;
    if (this.budget < 0) {
      throw new DocumentError(`the archive expands beyond tika.zip.max.bytes while reading ${name} (a zip bomb or an oversized document)`, 'bomb');
    }
    const ratio = this.limits.maxExpansionRatio;
    if (ratio >= 0 && this.expanded > RATIO_THRESHOLD_BYTES && this.expanded > ratio * this.compressedRead) {
      throw new DocumentError(`the archive expands more than tika.zip.max.ratio (${ratio}) times its compressed bytes while reading ${name} (${mib(this.expanded)} MiB from ${kib(this.compressedRead)} KiB: a zip bomb)`, 'bomb');
    }
  }

  private readDirectory(): void {
    const { bytes, view } = this;
    if (bytes.length < 22) throw new DocumentError('the file is too short to be a zip archive (truncated)', 'truncated');
    const floor = Math.max(0, bytes.length - 22 - 0xffff);
    let eocd = -1;
    for (let i = bytes.length - 22; i >= floor; i--) {
      if (view.getUint32(i, true) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw new DocumentError('the zip archive has no end-of-central-directory record (truncated or not a zip)', 'truncated');
    const count = view.getUint16(eocd + 10, true);
    const size = view.getUint32(eocd + 12, true);
    const offset = view.getUint32(eocd + 16, true);
    if (count === 0xffff || offset === 0xffffffff) throw new DocumentError('ZIP64 archives are not read', 'invalid');
    if (count > MAX_ENTRIES) throw new DocumentError(`the zip archive lists ${count} entries (more than ${MAX_ENTRIES})`, 'bomb');
    if (offset + size > eocd) throw new DocumentError('the zip central directory lies outside the file (truncated or corrupt)', 'truncated');
    let p = offset;
    for (let i = 0; i < count; i++) {
      if (p + 46 > eocd || view.getUint32(p, true) !== 0x02014b50) throw new DocumentError(`zip central directory entry ${i} is corrupt`, 'invalid');
      const flags = view.getUint16(p + 8, true);
      const nameLength = view.getUint16(p + 28, true);
      const name = new TextDecoder(flags & 0x800 ? 'utf-8' : 'latin1').decode(bytes.subarray(p + 46, p + 46 + nameLength));
      this.entries.set(name, {
        name,
        flags,
        method: view.getUint16(p + 10, true),
        compressedSize: view.getUint32(p + 20, true),
        localHeaderOffset: view.getUint32(p + 42, true),
      });
      p += 46 + nameLength + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
    }
  }
}

const mib = (n: number) => (n / 1048576).toFixed(1);
const kib = (n: number) => (n / 1024).toFixed(0);

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  if (chunks.length === 0) return new Uint8Array(0);
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
