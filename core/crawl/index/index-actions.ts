/**
 * Sends index actions to the IndexWriters composite: counts them with Nutch's counter names,
 * retries a failing action (a fan-out re-send is safe: writers upsert and delete by id), and on a
 * final failure rolls every writer back and throws NUTCH_INDEX_WRITER_FAILED naming the writer and
 * the documents that were not written.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { NutchError, errorMessage } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { IndexWriters } from '../../extension-points/index-writer.js';
import type { NutchDocument } from '../../model/nutch-document.js';
import { count, type Counters } from '../progress.js';

const RETRIES = 2;

export class IndexActions {
  readonly counters: Counters = {};
  /** Ids sent in this run (kept only up to a bound, for the failure message). */
  private readonly sent: string[] = [];
  private sentCount = 0;
  done = 0;

  constructor(private readonly writers: IndexWriters, private readonly log: Logger) {}

  private async attempt(what: string, id: string, fn: () => Promise<void>): Promise<void> {
    for (let i = 0; ; i++) {
      try {
        await fn();
        return;
      } catch (err) {
        const writerId = (err as { writerId?: string }).writerId ?? '?';
        if (i < RETRIES) {
          this.log.warn(`Index writer ${writerId} failed to ${what} ${id} (attempt ${i + 1} of ${RETRIES + 1}): ${errorMessage(err)}; retrying.`, { writer: writerId, url: id });
          await sleep(20 * (i + 1));
          continue;
        }
        await this.fail();
        const examples = [...this.sent.slice(0, 5), id].join(', ');
        throw new NutchError(
          'NUTCH_INDEX_WRITER_FAILED',
          `Index writer ${writerId} failed to ${what} ${id} after ${RETRIES + 1} attempts: ${errorMessage(err)}. The run was rolled back by every writer that supports it: ${this.sentCount + 1} document(s) of this run were not written (${examples}${this.sentCount > 5 ? ', …' : ''}). Fix the cause and re-run nutch index.`,
          { writer: writerId, url: id, notWritten: this.sentCount + 1 },
          { cause: err },
        );
      }
    }
  }

  private remember(id: string): void {
    if (this.sent.length < 5) this.sent.push(id);
    this.sentCount++;
    this.done++;
  }

  async write(doc: NutchDocument): Promise<void> {
    const id = String(doc.fields.id?.[0] ?? '');
    await this.attempt('write', id, () => this.writers.write(doc));
    this.remember(id);
    count(this.counters, 'indexed (add/update)');
  }

  async delete(key: string, counter: string): Promise<void> {
    await this.attempt('delete', key, () => this.writers.delete(key));
    this.remember(key);
    count(this.counters, counter);
  }

  /** Commit (unless noCommit) and close every writer. */
  async finish(commit: boolean): Promise<void> {
    if (commit) await this.attempt('commit', '(commit)', () => this.writers.commit());
    try {
      await this.writers.close();
    } catch (err) {
      const writerId = (err as { writerId?: string }).writerId ?? '?';
      await this.fail();
      throw new NutchError('NUTCH_INDEX_WRITER_FAILED', `Index writer ${writerId} failed to close: ${errorMessage(err)}.`, { writer: writerId }, { cause: err });
    }
    this.closed = true;
  }

  private closed = false;

  /** Rolls back every writer (once). */
  async fail(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const { writerId, error } of await this.writers.abort()) this.log.warn(`Index writer ${writerId} failed to roll back: ${errorMessage(error)}`, { writer: writerId });
  }
}
