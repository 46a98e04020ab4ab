/**
 * The local test web (DESIGN §2): many hosts on loopback, one HTTP server per 127.0.0.N address,
 * deterministic pages with titles, text and links, robots.txt per host, redirects, 404s, optional
 * latency, plus `/special/*` routes that misbehave on purpose (trickling bodies, gzip bombs, garbage
 * status lines, resets). It knows which links it put in each page, so tests check the crawler against
 * it rather than against itself; `requestLog` records each request's arrival per host (politeness).
 * Imported by tests, bench/ (through bench/lib/test-web-process.ts) and `npm run demo`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { WebModel, escapeHtml, type TestWebOptions } from './web-model.js';
import { handleSpecial } from './special-routes.js';
import { renderSitemap } from './sitemaps.js';

export type { TestWebOptions, TestWebFile, RobotsSpec, SitemapEntry } from './web-model.js';

export interface RequestRecord {
  method: string;
  path: string;
  /** Arrival time, ms (performance.timeOrigin + performance.now()). */
  start: number;
  /** When the response finished or the connection closed, ms. */
  end: number;
  headers: Record<string, string | string[] | undefined>;
  status: number;
}

export interface TestWeb {
  /** `http://127.0.0.N:port/` per host. */
  readonly seeds: string[];
  /** `127.0.0.N:port` per host, index = host number. */
  readonly hosts: string[];
  readonly model: WebModel;
  /** Requests per host (`127.0.0.N:port`), in arrival order. */
  readonly requestLog: Map<string, RequestRecord[]>;
  /** URL of a path on host n. */
  url(host: number, path: string): string;
  /** Absolute URLs of the links the test web put in the page at `url` ([] for anything else). */
  linksOf(url: string): string[];
  /** Every existing page URL (home pages included). */
  allUrls(): string[];
  /** Requests seen for one URL. */
  requestsFor(url: string): RequestRecord[];
  clearLog(): void;
  close(): Promise<void>;
}

const now = () => performance.timeOrigin + performance.now();

export async function startTestWeb(options: TestWebOptions): Promise<TestWeb> {
  const model = new WebModel(options);
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const hosts: string[] = [];
  const requestLog = new Map<string, RequestRecord[]>();
  const compressed = new Map<string, Buffer>();

  const hostIndexOf = new Map<string, number>();
  const url = (host: number, path: string) => `http://${hosts[host]}${path}`;

  const renderPage = (host: number, page: number): string => {
    const links = model.links(host, page)
      .map((l, i) => `<li><a href="${escapeHtml(l.host === host ? l.path : url(l.host, l.path))}">link ${i} to ${l.path}</a></li>`)
      .join('\n');
    const title = model.title(host, page);
    const head = `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body><h1>${escapeHtml(title)}</h1>\n<ul>\n${links}\n</ul>\n`;
    const filler = model.filler(Math.max(0, model.opts.pageBytes - head.length - 20));
    return `${head}${filler}</body></html>\n`;
  };

  const pageNumber = (path: string): number | null => {
    if (path === '/' || path === '/index.html') return 0;
    const m = /^\/page\/(\d+)\.html$/.exec(path);
    if (!m) return null;
    const n = Number(m[1]);
    return n > 0 && n < model.opts.pagesPerHost ? n : null;
  };

  const handle = (host: number, req: IncomingMessage, res: ServerResponse, record: RequestRecord) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const path = u.pathname;
    if (path === '/robots.txt') {
      const txt = model.robotsTxt(host, `http://${hosts[host]}`);
      const status = model.opts.robots?.status?.(host);
      if (txt === null) return send(res, 404, 'text/plain', 'no robots.txt\n');
      return send(res, status ?? 200, 'text/plain', txt);
    }
    const page = pageNumber(path);
    if (page !== null) return send(res, 200, 'text/html; charset=utf-8', renderPage(host, page));
    const redirect = /^\/redirect\/(301|302)\/(\d+)$/.exec(path);
    if (redirect) {
      res.writeHead(Number(redirect[1]), { Location: model.pagePath(Number(redirect[2])), 'Content-Length': '0' });
      return res.end();
    }
    if (model.opts.sitemaps) {
      const sitemap = renderSitemap(model, host, path, url);
      if (sitemap) return send(res, 200, sitemap.type, sitemap.body);
    }
    if (path.startsWith('/gone/')) return send(res, 410, 'text/plain', 'gone\n');
    const file = Object.hasOwn(model.opts.files, path) ? model.opts.files[path] : undefined;
    if (file) {
      const body = typeof file.body === 'string' ? Buffer.from(file.body) : Buffer.from(file.body.buffer, file.body.byteOffset, file.body.byteLength);
      res.writeHead(200, { ...(file.contentType ? { 'Content-Type': file.contentType } : {}), 'Content-Length': String(body.length) });
      return res.end(body);
    }
    if (path.startsWith('/special/')) {
      const page0 = () => renderPage(host, 0);
      return handleSpecial({ req, res, u, record, page: page0, compressed, url: (p) => url(host, p) });
    }
    return send(res, 404, 'text/html', '<html><head><title>404</title></head><body>not found</body></html>');
  };

  const firstPort = model.opts.port;
  for (let h = 0; h < model.opts.hosts; h++) {
    const address = model.address(h);
    const server = createServer({ keepAlive: true }, (req, res) => {
      const record: RequestRecord = { method: req.method ?? 'GET', path: req.url ?? '/', start: now(), end: 0, headers: req.headers, status: 0 };
      const key = hosts[h]!;
      let list = requestLog.get(key);
      if (!list) requestLog.set(key, (list = []));
      list.push(record);
      const done = () => {
        if (!record.end) record.end = now();
        record.status = res.statusCode;
      };
      res.on('finish', done);
      res.on('close', done);
      const go = () => {
        try {
          handle(h, req, res, record);
        } catch (err) {
          if (!res.headersSent) send(res, 500, 'text/plain', String(err));
          else res.destroy();
        }
      };
      const respond = () => {
        if (model.opts.latencyMs > 0) setTimeout(go, model.opts.latencyMs);
        else go();
      };
      const held = model.opts.hold(req);
      if (held) void held.then(respond, respond);
      else respond();
    });
    server.keepAliveTimeout = 10_000;
    server.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(firstPort, address, () => resolve());
    });
    const port = (server.address() as { port: number }).port;
    hosts.push(`${address}:${port}`);
    hostIndexOf.set(`${address}:${port}`, h);
    servers.push(server);
  }

  const parse = (u: string): { host: number; path: string } | null => {
    try {
      const p = new URL(u);
      const host = hostIndexOf.get(p.host);
      return host === undefined ? null : { host, path: p.pathname };
    } catch {
      return null;
    }
  };

  return {
    seeds: hosts.map((_, i) => url(i, '/')),
    hosts,
    model,
    requestLog,
    url,
    linksOf(u) {
      const p = parse(u);
      if (!p) return [];
      const page = pageNumber(p.path);
      if (page === null) return [];
      return model.links(p.host, page).map((l) => url(l.host, l.path));
    },
    allUrls() {
      const out: string[] = [];
      for (let h = 0; h < hosts.length; h++) for (let p = 0; p < model.opts.pagesPerHost; p++) out.push(url(h, model.pagePath(p)));
      return out;
    },
    requestsFor(u) {
      const p = new URL(u);
      return (requestLog.get(p.host) ?? []).filter((r) => r.path === p.pathname + p.search);
    },
    clearLog() {
      requestLog.clear();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      })));
    },
  };
}

export function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': String(buf.length), ...extra });
  res.end(buf);
}
