/**
 * indexer-opensearch, Nutch's indexer-opensearch-1x on the official OpenSearch client for Node
 * (@opensearch-project/opensearch): index and delete actions are batched as Nutch's BulkProcessor does
 * (a request at max.bulk.docs actions or max.bulk.size bytes, and at commit), sent with `_bulk`, and
 * retried with exponential backoff — the whole request on a network error, 429 or 502/503/504, single
 * items the node rejected with 429. Any other rejected item fails the batch naming the document ids
 * (Nutch only logs them; a lost document should stop the index stage). Parameters: opensearch-params.ts.
 */
import { Client, errors } from '@opensearch-project/opensearch';
import { NutchError, type IndexWriter, type IndexWriterParams, type Logger, type NutchDocument, type PluginContext } from '../../sdk/plugin.js';
import { deleteEntry, indexEntry, type BulkEntry } from './bulk-actions.js';
import { parseOpenSearchParams, type OpenSearchParams } from './opensearch-params.js';

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

interface BulkItemResult {
  _id?: string;
  status: number;
  error?: { type?: string; reason?: string };
}

export class OpenSearchIndexWriter implements IndexWriter {
  private readonly log: Logger | undefined;
  private writerId = 'indexer-opensearch';
  private params!: OpenSearchParams;
  private client: Client | null = null;
  private pending: BulkEntry[] = [];
  private pendingBytes = 0;

  constructor(ctx?: PluginContext) {
    this.log = ctx?.log;
  }

  async open(params: IndexWriterParams): Promise<void> {
    this.writerId = params.writerId;
    this.params = parseOpenSearchParams(params.writerId, params.parameters);
    const https = this.params.nodes[0]!.startsWith('https:');
    // As Nutch: without a trust store, https does not verify the node's certificate (and says so).
    if (https && !this.params.ca) this.log?.warn(`indexer-opensearch writer ${this.writerId}: no trust.store.path, so the nodes' TLS certificates are not verified; set it to the cluster's CA certificate (PEM)`);
    this.client = new Client({
      node: this.params.nodes,
      auth: { username: this.params.username, password: this.params.password },
      ssl: https ? (this.params.ca ? { ca: this.params.ca } : { rejectUnauthorized: false }) : undefined,
      // retries are ours (exponential backoff, item-level 429), not the client's immediate ones
      maxRetries: 0,
      requestTimeout: this.params.closeTimeout * 1000,
    });
  }

  private fail(message: string, notWritten: string[], cause?: unknown): NutchError {
    const ids = `${notWritten.slice(0, 5).join(', ')}${notWritten.length > 5 ? ', …' : ''}`;
    return new NutchError('NUTCH_INDEX_WRITER_FAILED', `indexer-opensearch writer ${this.writerId}: ${message}; ${notWritten.length} action(s) not written: ${ids}`, { writer: this.writerId, notWritten }, { cause });
  }

  private async add(e: BulkEntry): Promise<void> {
    if (!this.client) throw new NutchError('NUTCH_INDEX_WRITER_FAILED', `indexer-opensearch writer ${this.writerId}: write before open().`, { writer: this.writerId });
    if (this.pending.length && this.pendingBytes + e.bytes > this.params.maxBulkBytes) await this.flush();
    this.pending.push(e);
    this.pendingBytes += e.bytes;
    if (this.pending.length >= this.params.maxBulkDocs) await this.flush();
  }

  async write(doc: NutchDocument): Promise<void> {
    const id = String(doc.fields.id?.[0] ?? doc.fields.url?.[0] ?? '');
    if (!id) throw new NutchError('NUTCH_INDEX_WRITER_FAILED', `indexer-opensearch writer ${this.writerId}: a document has no "id" field.`, { writer: this.writerId });
    await this.add(indexEntry(this.params.index, id, doc));
  }

  async update(doc: NutchDocument): Promise<void> {
    await this.write(doc);
  }

  async delete(key: string): Promise<void> {
    await this.add(deleteEntry(this.params.index, key));
  }

  private backoff(attempt: number): Promise<void> {
    return new Promise((r) => setTimeout(r, this.params.backoffMillis * 2 ** attempt));
  }

  /** Sends what is pending; a batch is done when every item is accepted (a delete of a missing id is). */
  private async flush(): Promise<void> {
    let batch = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    for (let attempt = 0; batch.length; attempt++) {
      let items: { [op: string]: BulkItemResult }[];
      try {
        const res = await this.client!.bulk({ body: batch.flatMap((e) => e.lines) });
        items = (res.body as { items?: { [op: string]: BulkItemResult }[] }).items ?? [];
      } catch (err) {
        const status = err instanceof errors.ResponseError ? err.statusCode : null;
        const transient = status === null ? err instanceof errors.ConnectionError || err instanceof errors.TimeoutError : RETRYABLE_STATUS.has(status);
        const why = status === null ? (err as Error).message : `HTTP ${status}${status === 401 ? ' (check the username and password parameters)' : ''}: ${JSON.stringify((err as errors.ResponseError).body ?? '').slice(0, 300)}`;
        if (!transient) throw this.fail(`_bulk failed (${why})`, batch.map((e) => e.id), err);
        if (attempt >= this.params.backoffRetries) throw this.fail(`_bulk failed after ${attempt + 1} attempts (${why})`, batch.map((e) => e.id), err);
        await this.backoff(attempt);
        continue;
      }
      const retry: BulkEntry[] = [];
      const rejected: string[] = [];
      items.forEach((item, i) => {
        const [op, result] = Object.entries(item)[0]!;
        if (result.status < 300 || (op === 'delete' && result.status === 404)) return;
        if (result.status === 429) retry.push(batch[i]!);
        else rejected.push(`${batch[i]?.id ?? result._id} (${result.status} ${result.error?.type ?? ''}: ${result.error?.reason ?? ''})`);
      });
      if (rejected.length) throw this.fail(`OpenSearch rejected ${rejected.length} action(s): ${rejected.slice(0, 3).join('; ')}`, rejected.map((r) => r.split(' (')[0]!));
      if (retry.length && attempt >= this.params.backoffRetries) throw this.fail(`items still rejected with 429 after ${attempt + 1} attempts`, retry.map((e) => e.id));
      if (retry.length) await this.backoff(attempt);
      batch = retry;
    }
  }

  async commit(): Promise<void> {
    await this.flush();
  }

  async close(): Promise<void> {
    try {
      if (this.client) await this.flush();
    } finally {
      await this.client?.close();
      this.client = null;
    }
  }

  /** `_bulk` has no transactions: what a node accepted stays; what was not sent yet is dropped. */
  async abort(): Promise<void> {
    this.pending = [];
    this.pendingBytes = 0;
    await this.client?.close();
    this.client = null;
  }
}
