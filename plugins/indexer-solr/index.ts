/**
 * indexer-solr: Nutch's default index writer. Sends documents to Apache Solr through its JSON update
 * API (`POST <core>/update`, Solr 8.x and 9.x): adds as a JSON array of documents, deletes as
 * `{"delete":[ids]}`, a commit as `{"commit":{}}` — with Nutch's index-writers parameters: type
 * (http | cloud), url (comma-separated), collection (cloud), weight.field, commitSize, auth, username,
 * password. As Nutch: with type http every URL receives every batch (independent servers); with type
 * cloud the URLs are nodes of one SolrCloud cluster, `<url>/<collection>` is the target and the next
 * node is tried when one fails. Actions are sent in the order they were made: a run of adds and a run
 * of deletes never share a request. A network error, 429 or 503 is retried with exponential backoff
 * (exponential.backoff.millis / .retries, nutch-ts parameters); any other error fails the batch with
 * Solr's message and the ids not written. Contract-tested against a local server (docs/indexing.md).
 */
import { request } from 'undici';
import { NutchError, type IndexWriter, type IndexWriterParams, type NutchDocument } from '../../sdk/plugin.js';
import { deleteId, solrInputDocument } from './solr-document.js';

type Kind = 'add' | 'delete';

const RETRYABLE = new Set([429, 502, 503, 504]);

interface SolrReply {
  status: number;
  message: string;
}

export class SolrIndexWriter implements IndexWriter {
  private writerId = 'indexer-solr';
  private cloud = false;
  /** Update handler URLs (`…/update`): every one receives every batch (http), or failover (cloud). */
  private targets: string[] = [];
  private headers: Record<string, string> = { 'content-type': 'application/json' };
  private weightField = '';
  private commitSize = 1000;
  private backoffMs = 100;
  private retries = 5;
  private timeoutMs = 30_000;
  private kind: Kind = 'add';
  private pending: { id: string; json: string }[] = [];
  private turn = 0;
  private added = 0;
  private deleted = 0;
  /** Something was sent since the last commit (close after commit sends no second commit). */
  private dirty = false;

  private fail(message: string, details: Record<string, unknown> = {}, cause?: unknown): NutchError {
    return new NutchError('NUTCH_INDEX_WRITER_FAILED', `indexer-solr writer ${this.writerId}: ${message}`, { writer: this.writerId, ...details }, { cause });
  }

  private invalid(message: string): NutchError {
    return new NutchError('NUTCH_INDEX_WRITERS_INVALID', `indexer-solr writer ${this.writerId}: ${message}`, { writer: this.writerId });
  }

  private num(p: Record<string, string>, name: string, fallback: number): number {
    if (p[name] === undefined || p[name] === '') return fallback;
    const n = Number(p[name]);
    if (!Number.isInteger(n) || n < 0) throw this.invalid(`parameter "${name}" must be a non-negative integer, got "${p[name]}".`);
    return n;
  }

  async open(params: IndexWriterParams): Promise<void> {
    this.writerId = params.writerId;
    const p = params.parameters;
    const type = (p.type ?? 'http').trim().toLowerCase();
    if (type !== 'http' && type !== 'cloud') throw this.invalid(`parameter "type" must be "http" or "cloud", got "${p.type}".`);
    this.cloud = type === 'cloud';
    const urls = (p.url ?? 'http://localhost:8983/solr/nutch').split(',').map((u) => u.trim().replace(/\/+$/, '')).filter(Boolean);
    if (!urls.length) throw this.invalid('parameter "url" is empty: give the Solr core URL (http://localhost:8983/solr/nutch).');
    for (const u of urls) {
      let parsed: URL;
      try {
        parsed = new URL(u);
      } catch {
        throw this.invalid(`parameter "url": "${u}" is not a URL.`);
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw this.invalid(`parameter "url": "${u}" is not an http(s) URL (ZooKeeper addresses are not supported: give the Solr nodes' URLs).`);
    }
    const collection = (p.collection ?? '').trim();
    if (this.cloud && !collection) throw this.invalid('type "cloud" needs the parameter "collection" (the url is the Solr root, http://host:8983/solr).');
    this.targets = urls.map((u) => (this.cloud ? `${u}/${encodeURIComponent(collection)}/update` : `${u}/update`));
    this.weightField = (p['weight.field'] ?? '').trim();
    this.commitSize = Math.max(1, this.num(p, 'commitSize', this.commitSize));
    this.backoffMs = this.num(p, 'exponential.backoff.millis', this.backoffMs);
    this.retries = this.num(p, 'exponential.backoff.retries', this.retries);
    this.timeoutMs = this.num(p, 'timeout', this.timeoutMs);
    if ((p.auth ?? 'false').trim() === 'true') {
      if (!p.username) throw this.invalid('auth is true but the parameter "username" is empty.');
      this.headers.authorization = `Basic ${Buffer.from(`${p.username}:${p.password ?? ''}`).toString('base64')}`;
    }
  }

  private async enqueue(kind: Kind, id: string, json: string): Promise<void> {
    if (this.pending.length && kind !== this.kind) await this.push();
    this.kind = kind;
    this.pending.push({ id, json });
    if (this.pending.length >= this.commitSize) await this.push();
  }

  async write(doc: NutchDocument): Promise<void> {
    const id = String(doc.fields.id?.[0] ?? '');
    if (!id) throw this.fail('document has no "id" field (the uniqueKey of Nutch\'s Solr schema).');
    await this.enqueue('add', id, JSON.stringify(solrInputDocument(doc, this.weightField)));
  }

  async delete(key: string): Promise<void> {
    await this.enqueue('delete', key, JSON.stringify(deleteId(key)));
  }

  private async post(url: string, body: string): Promise<SolrReply> {
    const res = await request(`${url}?wt=json`, { method: 'POST', headers: this.headers, body, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs });
    const text = await res.body.text();
    let message = '';
    if (res.statusCode >= 300) {
      try {
        const json = JSON.parse(text) as { error?: { msg?: string } };
        message = json.error?.msg ?? text;
      } catch {
        message = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
      }
    }
    return { status: res.statusCode, message: message.slice(0, 300) };
  }

  /** One request to one target (cloud: to the nodes in turn), retried while the failure is transient. */
  private async send(body: string, ids: string[], fixedTarget?: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const url = fixedTarget ?? this.targets[this.turn % this.targets.length]!;
      let reply: SolrReply | null = null;
      let error: unknown = null;
      try {
        reply = await this.post(url, body);
      } catch (err) {
        error = err;
      }
      if (reply && reply.status >= 200 && reply.status < 300) return;
      const what = error ? (error as Error).message : `HTTP ${reply!.status}${reply!.message ? `: ${reply!.message}` : ''}`;
      const notWritten = `${ids.length} action(s) not written: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}`;
      if (error === null && !RETRYABLE.has(reply!.status)) {
        const hint = reply!.status === 404 ? ' (no such core or collection: check "url" and "collection")' : reply!.status === 401 || reply!.status === 403 ? ' (check "auth", "username" and "password")' : '';
        throw this.fail(`${url} answered ${what}${hint}; ${notWritten}.`, { notWritten: ids, status: reply!.status });
      }
      if (attempt >= this.retries) throw this.fail(`${url} failed after ${attempt + 1} attempts (${what}); ${notWritten}.`, { notWritten: ids }, error ?? undefined);
      if (this.cloud) this.turn++;
      await new Promise((r) => setTimeout(r, this.backoffMs * 2 ** attempt));
    }
  }

  /** Sends the pending run (all adds or all deletes) to Solr. Not a commit, as Nutch's push(). */
  private async push(): Promise<void> {
    if (!this.pending.length) return;
    const batch = this.pending;
    this.pending = [];
    const items = batch.map((e) => e.json).join(',');
    const body = this.kind === 'add' ? `[${items}]` : `{"delete":[${items}]}`;
    const ids = batch.map((e) => e.id);
    this.dirty = true;
    if (this.cloud) await this.send(body, ids);
    else for (const target of this.targets) await this.send(body, ids, target);
    if (this.kind === 'add') this.added += batch.length;
    else this.deleted += batch.length;
  }

  /** Sends what is pending, then a hard commit on every target (cloud: on the collection). */
  async commit(): Promise<void> {
    await this.push();
    if (!this.dirty) return;
    await this.everywhere('{"commit":{}}');
    this.dirty = false;
  }

  async close(): Promise<void> {
    await this.commit();
  }

  /**
   * Drops what was not sent and, on a standalone Solr (type http), rolls back what was sent since the
   * last commit. SolrCloud has no rollback: there the uncommitted updates stay until its next commit.
   */
  async abort(): Promise<void> {
    this.pending = [];
    if (this.dirty && !this.cloud) await this.everywhere('{"rollback":{}}');
    this.dirty = false;
  }

  private async everywhere(command: string): Promise<void> {
    if (this.cloud) await this.send(command, []);
    else for (const target of this.targets) await this.send(command, [], target);
  }

  /** Counts for the log and tests: documents added and ids deleted (sent, not necessarily committed). */
  get sent(): { added: number; deleted: number } {
    return { added: this.added, deleted: this.deleted };
  }
}
