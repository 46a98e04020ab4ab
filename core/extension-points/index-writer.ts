/**
 * IndexWriter — combine rule: FAN-OUT. Every configured writer receives every action, in the order of
 * index-writers.json; a writer's error is tagged with its id. Search is an optional capability.
 */
import type { NutchDocument } from '../model/nutch-document.js';

export interface IndexWriterParams {
  /** The writer's id in index-writers.json. */
  writerId: string;
  /** Parameters from index-writers.json. */
  parameters: Record<string, string>;
  /** Crawl directory, for embedded writers that store beside it. */
  crawlDir?: string;
}

export interface SearchHit {
  url: string;
  title: string;
  snippet: string;
  score: number;
  id?: string;
}

export interface IndexWriter {
  open(params: IndexWriterParams): Promise<void>;
  write(doc: NutchDocument): Promise<void>;
  update?(doc: NutchDocument): Promise<void>;
  delete(key: string): Promise<void>;
  commit(): Promise<void>;
  close(): Promise<void>;
  /** Optional: discard what was written since the last commit (the stage failed); then close. */
  abort?(): Promise<void>;
  /** Optional searcher capability (indexer-sqlite has it). */
  search?(query: string, opts: { limit: number }): Promise<SearchHit[]>;
}

export class IndexWriters {
  constructor(private readonly writers: readonly { writerId: string; writer: IndexWriter }[]) {}

  get chain(): readonly string[] {
    return this.writers.map((w) => w.writerId);
  }

  private async all(fn: (w: IndexWriter) => Promise<void>): Promise<void> {
    for (const w of this.writers) {
      try {
        await fn(w.writer);
      } catch (err) {
        (err as { writerId?: string }).writerId ??= w.writerId;
        throw err;
      }
    }
  }

  write(doc: NutchDocument): Promise<void> {
    return this.all((w) => w.write(doc));
  }

  update(doc: NutchDocument): Promise<void> {
    return this.all((w) => (w.update ? w.update(doc) : w.write(doc)));
  }

  delete(key: string): Promise<void> {
    return this.all((w) => w.delete(key));
  }

  commit(): Promise<void> {
    return this.all((w) => w.commit());
  }

  close(): Promise<void> {
    return this.all((w) => w.close());
  }

  /** Rolls back every writer that can (others are closed); never throws, returns the errors. */
  async abort(): Promise<{ writerId: string; error: unknown }[]> {
    const errors: { writerId: string; error: unknown }[] = [];
    for (const w of this.writers) {
      try {
        await (w.writer.abort ? w.writer.abort() : w.writer.close());
      } catch (error) {
        errors.push({ writerId: w.writerId, error });
      }
    }
    return errors;
  }

  /** The first writer with the searcher capability. */
  searcher(): IndexWriter | undefined {
    return this.writers.find((w) => typeof w.writer.search === 'function')?.writer;
  }
}
