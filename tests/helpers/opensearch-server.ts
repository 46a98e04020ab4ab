/**
 * A stand-in for an OpenSearch node on 127.0.0.1, speaking the documented REST formats the
 * indexer-opensearch writer uses (OpenSearch 2.x/3.x `_bulk`): NDJSON action/source pairs in, a
 * `{took, errors, items:[{index|delete:{_index,_id,status,result|error}}]}` answer out, per-item
 * results (201 created / 200 updated, 200 deleted / 404 not_found), `GET /<index>/_doc/<id>`,
 * `POST /<index>/_refresh`, Basic auth answered with the security plugin's 401, and injected
 * failures: whole-request statuses (429, 503) and per-item 429 (es_rejected_execution_exception) or
 * 400 (mapper_parsing_exception) for chosen ids.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface FakeOpenSearchOptions {
  /** Required Basic credentials (user:password). */
  credentials?: string;
  /** Status answered to the n-th `_bulk` request (1-based) instead of processing it. */
  requestStatus?: (n: number) => number | undefined;
  /** Per item: a status to reject it with on the n-th `_bulk` request (429 or 400), else undefined. */
  itemStatus?: (id: string, n: number) => 429 | 400 | undefined;
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeOpenSearch {
  url: string;
  port: number;
  requests: SeenRequest[];
  /** Stored documents per index. */
  indices: Map<string, Map<string, Record<string, unknown>>>;
  close(): Promise<void>;
}

const ERRORS = {
  429: { type: 'es_rejected_execution_exception', reason: 'rejected execution of coordinating operation' },
  400: { type: 'mapper_parsing_exception', reason: 'failed to parse field [tstamp] of type [date]' },
} as const;

export async function startFakeOpenSearch(opts: FakeOpenSearchOptions = {}): Promise<FakeOpenSearch> {
  const requests: SeenRequest[] = [];
  const indices = new Map<string, Map<string, Record<string, unknown>>>();
  let bulks = 0;
  const index = (name: string) => {
    let m = indices.get(name);
    if (!m) indices.set(name, (m = new Map()));
    return m;
  };
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
      const send = (status: number, json: unknown) => res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(json));
      if (opts.credentials && req.headers.authorization !== `Basic ${Buffer.from(opts.credentials).toString('base64')}`) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="OpenSearch Security"', 'content-type': 'text/plain; charset=UTF-8' }).end('Unauthorized');
        return;
      }
      if (path === '/_bulk' && req.method === 'POST') {
        bulks++;
        const forced = opts.requestStatus?.(bulks);
        if (forced) return send(forced, { error: { type: forced === 429 ? 'rejected_execution_exception' : 'cluster_block_exception', reason: `injected ${forced}` }, status: forced });
        const lines = body.split('\n').filter((l) => l.trim());
        const items: Record<string, unknown>[] = [];
        let errors = false;
        for (let i = 0; i < lines.length; i++) {
          const action = JSON.parse(lines[i]!) as Record<string, { _index: string; _id: string }>;
          const [op, meta] = Object.entries(action)[0]!;
          const source = op === 'index' || op === 'create' ? JSON.parse(lines[++i]!) : null;
          const rejected = opts.itemStatus?.(meta._id, bulks);
          if (rejected) {
            errors = true;
            items.push({ [op]: { _index: meta._index, _id: meta._id, status: rejected, error: ERRORS[rejected] } });
            continue;
          }
          const docs = index(meta._index);
          if (op === 'delete') {
            const found = docs.delete(meta._id);
            items.push({ delete: { _index: meta._index, _id: meta._id, status: found ? 200 : 404, result: found ? 'deleted' : 'not_found' } });
          } else {
            const existed = docs.has(meta._id);
            docs.set(meta._id, source);
            items.push({ [op]: { _index: meta._index, _id: meta._id, status: existed ? 200 : 201, result: existed ? 'updated' : 'created' } });
          }
        }
        return send(200, { took: 1, errors, items });
      }
      const refresh = /^\/([^/]+)\/_refresh$/.exec(path);
      if (refresh) return send(200, { _shards: { total: 1, successful: 1, failed: 0 } });
      const get = /^\/([^/]+)\/_doc\/(.+)$/.exec(path);
      if (get && req.method === 'GET') {
        const id = decodeURIComponent(get[2]!);
        const source = indices.get(get[1]!)?.get(id);
        return send(source ? 200 : 404, { _index: get[1], _id: id, found: !!source, ...(source ? { _source: source } : {}) });
      }
      if (path === '/') return send(200, { name: 'stand-in', version: { distribution: 'opensearch', number: '2.19.0' }, tagline: 'The OpenSearch Project: https://opensearch.org/' });
      send(400, { error: { type: 'illegal_argument_exception', reason: `no handler for ${req.method} ${path}` }, status: 400 });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    indices,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
