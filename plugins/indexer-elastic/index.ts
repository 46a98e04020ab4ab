/**
 * indexer-elastic: sends index and delete actions to Elasticsearch or OpenSearch through the `_bulk`
 * API over undici, with Nutch's ElasticIndexWriter parameters: host (comma-separated, tried in turn),
 * port, scheme, index, username/password (basic auth) or api.key, max.bulk.docs, max.bulk.size,
 * exponential.backoff.millis and exponential.backoff.retries. Requests that fail with a network
 * error, 429 or 5xx are retried with exponential backoff; items rejected with 429 are re-sent; any
 * other rejected item fails the batch naming the document ids. Contract-tested only (no server here).
 */
import { request } from 'undici';
import { NutchError, type IndexWriter, type IndexWriterParams, type NutchDocument } from '../../sdk/plugin.js';
import { deleteAction, indexAction } from './bulk-body.js';

interface Pending {
  id: string;
  line: string;
}

interface BulkItem {
  [action: string]: { _id?: string; status: number; error?: { type?: string; reason?: string } };
}

const RETRYABLE = new Set([429, 502, 503, 504]);

export class ElasticIndexWriter implements IndexWriter {
  private writerId = 'indexer-elastic';
  private bases: string[] = [];
  private index = 'nutch';
  private headers: Record<string, string> = { 'content-type': 'application/x-ndjson' };
  private maxDocs = 250;
  private maxBytes = 2_500_500;
  private backoffMs = 100;
  private retries = 10;
  private timeoutMs = 30_000;
  private pending: Pending[] = [];
  private bytes = 0;
  private turn = 0;

  private fail(message: string, details: Record<string, unknown> = {}, cause?: unknown): NutchError {
    return new NutchError('NUTCH_INDEX_WRITER_FAILED', `indexer-elastic writer ${this.writerId}: ${message}`, { writer: this.writerId, ...details }, { cause });
  }

  private num(p: Record<string, string>, name: string, fallback: number): number {
    if (p[name] === undefined) return fallback;
    const n = Number(p[name]);
    if (!Number.isFinite(n) || n < 0) throw new NutchError('NUTCH_INDEX_WRITERS_INVALID', `indexer-elastic writer ${this.writerId}: parameter "${name}" must be a non-negative number, got "${p[name]}".`, { writer: this.writerId });
    return n;
  }

  async open(params: IndexWriterParams): Promise<void> {
    this.writerId = params.writerId;
    const p = params.parameters;
    const scheme = p.scheme ?? 'http';
    const port = this.num(p, 'port', 9200);
    this.bases = p.url
      ? p.url.split(',').map((u) => u.trim().replace(/\/+$/, '')).filter(Boolean)
      : (p.host ?? 'localhost').split(',').map((h) => h.trim()).filter(Boolean).map((h) => `${scheme}://${h}:${port}`);
    this.index = p.index ?? this.index;
    if (!/^[^A-Z\\/*?"<>| ,#]+$/.test(this.index)) throw new NutchError('NUTCH_INDEX_WRITERS_INVALID', `indexer-elastic writer ${this.writerId}: "${this.index}" is not a valid index name (lowercase, no \\ / * ? " < > | space , #).`, { writer: this.writerId });
    this.maxDocs = Math.max(1, this.num(p, 'max.bulk.docs', this.maxDocs));
    this.maxBytes = Math.max(1, this.num(p, 'max.bulk.size', this.maxBytes));
    this.backoffMs = this.num(p, 'exponential.backoff.millis', this.backoffMs);
    this.retries = this.num(p, 'exponential.backoff.retries', this.retries);
    this.timeoutMs = this.num(p, 'timeout', this.timeoutMs);
    if (p['api.key']) this.headers.authorization = `ApiKey ${p['api.key']}`;
    else if (p.username !== undefined && p.auth !== 'false') this.headers.authorization = `Basic ${Buffer.from(`${p.username}:${p.password ?? ''}`).toString('base64')}`;
  }

  private async add(entry: Pending): Promise<void> {
    if (this.pending.length && (this.pending.length >= this.maxDocs || this.bytes + entry.line.length > this.maxBytes)) await this.flush();
    this.pending.push(entry);
    this.bytes += entry.line.length;
    if (this.pending.length >= this.maxDocs) await this.flush();
  }

  async write(doc: NutchDocument): Promise<void> {
    const id = String(doc.fields.id?.[0] ?? doc.fields.url?.[0] ?? '');
    if (!id) throw this.fail('document has no "id" field.');
    await this.add({ id, line: indexAction(this.index, id, doc) });
  }

  async delete(key: string): Promise<void> {
    await this.add({ id: key, line: deleteAction(this.index, key) });
  }

  private async post(body: string): Promise<{ status: number; json: { errors?: boolean; items?: BulkItem[] } | null; text: string }> {
    const base = this.bases[this.turn % this.bases.length]!;
    const res = await request(`${base}/_bulk`, { method: 'POST', headers: this.headers, body, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs });
    const text = await res.body.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: res.statusCode, json, text };
  }

  /** Sends the pending actions; retries transient failures with exponential backoff. */
  private async flush(): Promise<void> {
    let batch = this.pending;
    this.pending = [];
    this.bytes = 0;
    for (let attempt = 0; batch.length; attempt++) {
      let outcome: Awaited<ReturnType<ElasticIndexWriter['post']>> | null = null;
      let error: unknown = null;
      try {
        outcome = await this.post(batch.map((e) => e.line).join(''));
      } catch (err) {
        error = err;
      }
      const transient = error !== null || RETRYABLE.has(outcome!.status);
      if (transient) {
        if (attempt >= this.retries) throw this.fail(`_bulk failed after ${attempt + 1} attempts (${error ? (error as Error).message : `HTTP ${outcome!.status}`}); ${batch.length} action(s) not written: ${batch.slice(0, 5).map((e) => e.id).join(', ')}${batch.length > 5 ? ', …' : ''}.`, { notWritten: batch.map((e) => e.id) }, error ?? undefined);
        this.turn++;
        await new Promise((r) => setTimeout(r, this.backoffMs * 2 ** attempt));
        continue;
      }
      if (outcome!.status < 200 || outcome!.status >= 300) throw this.fail(`_bulk returned HTTP ${outcome!.status}: ${outcome!.text.slice(0, 300)}`, { notWritten: batch.map((e) => e.id) });
      const items = outcome!.json?.items ?? [];
      if (!outcome!.json?.errors) return;
      const retry: Pending[] = [];
      const failed: string[] = [];
      items.forEach((item, i) => {
        const result = Object.values(item)[0]!;
        if (result.status === 429) retry.push(batch[i]!);
        else if (result.status >= 300 && !(result.status === 404 && 'delete' in item)) failed.push(`${batch[i]?.id} (${result.status} ${result.error?.type ?? ''}: ${result.error?.reason ?? ''})`);
      });
      if (failed.length) throw this.fail(`${failed.length} action(s) rejected: ${failed.slice(0, 5).join('; ')}${failed.length > 5 ? '; …' : ''}`, { notWritten: failed });
      if (retry.length && attempt >= this.retries) throw this.fail(`${retry.length} action(s) still rejected with 429 after ${attempt + 1} attempts: ${retry.slice(0, 5).map((e) => e.id).join(', ')}`, { notWritten: retry.map((e) => e.id) });
      if (retry.length) await new Promise((r) => setTimeout(r, this.backoffMs * 2 ** attempt));
      batch = retry;
    }
  }

  async commit(): Promise<void> {
    await this.flush();
  }

  async close(): Promise<void> {
    await this.flush();
  }

  /** Drops what was not sent yet; what a server already accepted stays (no transactions in _bulk). */
  async abort(): Promise<void> {
    this.pending = [];
    this.bytes = 0;
  }
}
