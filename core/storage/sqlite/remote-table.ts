/**
 * The session side of a KeyedTable whose connection lives in a WriterWorker: same operations,
 * values encoded and decoded here with the row codec. put() keeps up to MAX_IN_FLIGHT batches in
 * flight so the main thread prepares the next batch while the worker writes the last one; every
 * read, commit and abort queues behind them (the worker serves requests in order), so a session
 * still reads its own writes.
 */
import type { Keyed, ScanOptions } from '../interfaces.js';
import type { RowCodec } from './keyed-table.js';
import type { WriterWorker } from './writer-worker.js';
import { WRITE_CHUNK } from '../yield.js';

const MAX_IN_FLIGHT = 2;
/** Rows per message: large enough to amortise the hop, small enough to keep each worker step short. */
const ROWS_PER_MESSAGE = WRITE_CHUNK * 4;

export class RemoteTable<V> {
  private readonly inFlight: Promise<void>[] = [];
  private error: unknown = null;

  constructor(private readonly worker: WriterWorker, private readonly codec: RowCodec<V>, private readonly defaultBatch: number) {}

  private rethrow(): void {
    if (this.error) throw this.error;
  }

  /** Waits for every batch in flight (and reports the first failure). */
  async drain(): Promise<void> {
    while (this.inFlight.length) await this.inFlight.shift();
    this.rethrow();
  }

  async put(records: readonly Keyed<V>[]): Promise<void> {
    this.rethrow();
    for (let i = 0; i < records.length; i += ROWS_PER_MESSAGE) {
      const rows = records.slice(i, i + ROWS_PER_MESSAGE).map((r) => this.codec.toParams(r.url, r.value));
      const sent = this.worker.call<void>('put', { rows }).catch((err) => { this.error ??= err; });
      this.inFlight.push(sent);
      while (this.inFlight.length > MAX_IN_FLIGHT) await this.inFlight.shift();
      this.rethrow();
    }
  }

  async delete(urls: readonly string[]): Promise<void> {
    await this.drain();
    for (let i = 0; i < urls.length; i += ROWS_PER_MESSAGE) await this.worker.call('delete', { urls: urls.slice(i, i + ROWS_PER_MESSAGE) });
  }

  async get(url: string): Promise<V | null> {
    return (await this.getMany([url])).get(url) ?? null;
  }

  async getMany(urls: readonly string[]): Promise<Map<string, V>> {
    await this.drain();
    const out = new Map<string, V>();
    for (let i = 0; i < urls.length; i += ROWS_PER_MESSAGE) {
      const rows = await this.worker.call<unknown[][]>('getMany', { urls: urls.slice(i, i + ROWS_PER_MESSAGE) });
      for (const row of rows) out.set(row[0] as string, this.codec.fromRow(row));
    }
    return out;
  }

  /** Rows in the table as the session sees them. */
  async count(): Promise<number> {
    await this.drain();
    return this.worker.call<number>('count');
  }

  async *scan(opts: ScanOptions = {}): AsyncGenerator<Keyed<V>> {
    await this.drain();
    const size = Math.max(1, opts.batchSize ?? this.defaultBatch);
    let rows = await this.worker.call<unknown[][]>('page', opts.fromUrl !== undefined ? { from: opts.fromUrl, size } : { size });
    while (rows.length > 0) {
      const last = rows[rows.length - 1][0] as string;
      for (const row of rows) yield { url: row[0] as string, value: this.codec.fromRow(row) };
      if (rows.length < size) return;
      await this.drain();
      rows = await this.worker.call<unknown[][]>('page', { after: last, size });
    }
  }
}
