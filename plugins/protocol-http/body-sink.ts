/**
 * Collects a body's bytes up to a maximum. With a Content-Length (identity body) the buffer is
 * allocated once at min(length, max) and filled in place, so a large page costs its size once instead
 * of twice (chunks + their concatenation); a server that lies about its length falls back to chunks.
 * An over-declared length costs nothing real: untouched pages of a large allocation are not resident.
 */
export class BodySink {
  private buffer: Buffer | null = null;
  private chunks: Buffer[] = [];
  private total = 0;

  /** Set when the in-flight budget refused bytes: the response must be dropped. */
  refused = false;

  constructor(private readonly max: number, expected?: number, private readonly reserve?: (bytes: number) => boolean) {
    if (expected !== undefined && Number.isSafeInteger(expected) && expected > 0) {
      this.buffer = Buffer.allocUnsafe(Math.min(expected, max));
    }
  }

  get length(): number {
    return this.total;
  }

  /** Appends what fits; false when bytes had to be dropped (longer than the maximum, or `refused`). */
  push(chunk: Buffer): boolean {
    const room = this.max - this.total;
    const take = chunk.length <= room ? chunk : chunk.subarray(0, Math.max(0, room));
    if (take.length > 0) {
      if (this.reserve && !this.reserve(take.length)) {
        this.refused = true;
        return false;
      }
      if (this.buffer && this.total + take.length <= this.buffer.length) {
        take.copy(this.buffer, this.total);
      } else {
        if (this.buffer) {
          // more bytes than the declared length: keep what is in the buffer as the first chunk
          this.chunks.push(this.buffer.subarray(0, this.total));
          this.buffer = null;
        }
        this.chunks.push(take);
      }
      this.total += take.length;
    }
    return chunk.length <= room;
  }

  /** The bytes read, as one Uint8Array; the sink is empty afterwards. */
  bytes(): Uint8Array {
    let out: Buffer;
    if (this.buffer) {
      // a body cut short of its declared length: do not keep the unused rest of the allocation alive
      out = this.total === this.buffer.length ? this.buffer
        : this.total > this.buffer.length / 2 ? this.buffer.subarray(0, this.total) : Buffer.from(this.buffer.subarray(0, this.total));
    } else out = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.total);
    this.buffer = null;
    this.chunks = [];
    return out;
  }
}
