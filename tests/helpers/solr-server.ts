/**
 * A local stand-in for Apache Solr's JSON update handler, on 127.0.0.1, for indexer-solr tests (no Solr
 * can be installed here). It implements the subset of the Solr 9 reference guide ("Indexing with Update
 * Handlers", JSON) that indexer-solr sends, with Solr's answers:
 *   POST /solr/<core>/update?wt=json, Content-Type application/json, body
 *     [ {doc}, … ]                  add documents (replace by uniqueKey `id`)
 *     {"delete": ["id", …]}         delete by id
 *     {"commit": {}}                hard commit: uncommitted adds and deletes become visible
 *     {"rollback": {}}              discard what was not committed (standalone Solr only)
 *   200 {"responseHeader":{"status":0,"QTime":n}} on success;
 *   400 {"responseHeader":{…},"error":{"msg":"ERROR: [doc=<id>] unknown field '<f>'","code":400}} for a
 *       field the core's schema lacks (when `fields` is given), a missing id, or a body that is not JSON;
 *   401 with Solr's JSON error when `auth` is set and Basic credentials do not match;
 *   404 Jetty's HTML "Not Found" page for a core that does not exist;
 *   503 / 429 with a JSON error for the first `failFirst` requests (overload), to exercise retries.
 * Committed documents are what a search would see; every request is recorded.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface SolrRequest {
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeSolrOptions {
  cores?: string[];
  /** The schema's fields; undefined = every field accepted (schemaless). */
  fields?: string[];
  auth?: { username: string; password: string };
  /** Answer the first N update requests with this status (503 or 429). */
  failFirst?: { count: number; status: number };
}

export interface FakeSolr {
  url: string;
  port: number;
  requests: SolrRequest[];
  /** Committed documents per core, by id. */
  committed(core: string): Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

const ok = () => ({ responseHeader: { status: 0, QTime: 1 } });
const error = (code: number, msg: string) => ({ responseHeader: { status: code, QTime: 1 }, error: { metadata: ['error-class', 'org.apache.solr.common.SolrException', 'root-error-class', 'org.apache.solr.common.SolrException'], msg, code } });

type Op = { add: Record<string, unknown> } | { delete: string };

export async function startFakeSolr(opts: FakeSolrOptions = {}): Promise<FakeSolr> {
  const cores = new Map<string, { committed: Map<string, Record<string, unknown>>; uncommitted: Op[] }>();
  for (const c of opts.cores ?? ['nutch']) cores.set(c, { committed: new Map(), uncommitted: [] });
  const requests: SolrRequest[] = [];
  let failures = 0;

  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => {
      const [path = '', query = ''] = (req.url ?? '').split('?');
      requests.push({ path, query, headers: req.headers, body });
      const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' }).end(JSON.stringify(value));
      const m = /^\/solr\/([^/]+)\/update$/.exec(path);
      const core = m ? cores.get(decodeURIComponent(m[1]!)) : undefined;
      if (!core || req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'text/html;charset=iso-8859-1' }).end(`<html><head><title>Error 404 Not Found</title></head><body><h2>HTTP ERROR 404 Not Found</h2><table><tr><th>URI:</th><td>${path}</td></tr></table></body></html>`);
        return;
      }
      if (opts.auth) {
        const expected = `Basic ${Buffer.from(`${opts.auth.username}:${opts.auth.password}`).toString('base64')}`;
        if (req.headers.authorization !== expected) return json(401, error(401, 'require authentication'));
      }
      if (opts.failFirst && failures < opts.failFirst.count) {
        failures++;
        return json(opts.failFirst.status, error(opts.failFirst.status, 'Server is shutting down or overloaded'));
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch (err) {
        return json(400, error(400, `Cannot parse provided JSON: ${(err as Error).message}`));
      }
      if (Array.isArray(parsed)) {
        const adds: Op[] = [];
        for (const doc of parsed as Record<string, unknown>[]) {
          if (typeof doc.id !== 'string' || !doc.id) return json(400, error(400, `Document is missing mandatory uniqueKey field: id`));
          const unknown = opts.fields && Object.keys(doc).find((f) => !opts.fields!.includes(f));
          if (unknown) return json(400, error(400, `ERROR: [doc=${doc.id}] unknown field '${unknown}'`));
          adds.push({ add: doc });
        }
        core.uncommitted.push(...adds);
        return json(200, ok());
      }
      const command = parsed as { delete?: unknown; commit?: unknown; rollback?: unknown };
      if (Array.isArray(command.delete)) {
        core.uncommitted.push(...command.delete.map((id) => ({ delete: String(id) })));
        return json(200, ok());
      }
      if (command.commit !== undefined) {
        for (const op of core.uncommitted) {
          if ('add' in op) core.committed.set(op.add.id as string, op.add);
          else core.committed.delete(op.delete.replace(/\\!/g, '!'));
        }
        core.uncommitted = [];
        return json(200, ok());
      }
      if (command.rollback !== undefined) {
        core.uncommitted = [];
        return json(200, ok());
      }
      return json(400, error(400, `Unknown command '${Object.keys(command)[0]}'`));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/solr`,
    port,
    requests,
    committed: (core) => cores.get(core)?.committed ?? new Map(),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
