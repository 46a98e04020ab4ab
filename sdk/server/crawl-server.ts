/**
 * `nutch server`'s HTTP side: a JSON API over one crawl directory (start/stop a crawl, its progress
 * events as a server-sent event stream, CrawlDb stats, per-host status counts, segments and their
 * parts, search) and the dashboard page on top of it. fastify validates every body and query string
 * against its JSON schema. Everything but the running crawl's live figures is read from the crawl
 * directory through the SDK readers, so the server holds no state the CLI cannot read.
 *
 * Access: bound to loopback, no token is needed (as Nutch's REST server); bound beyond it, every
 * /api request needs the token (`Authorization: Bearer <token>` or `?token=`, which the page passes on).
 */
import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Nutch } from '../create-nutch.js';
import { isNutchError } from '../../core/errors.js';
import { statsToJson, type CrawlDbStats } from '../../core/crawl/readdb/crawldb-stats.js';
import { statusName } from '../../core/model/crawl-datum.js';
import { packageVersion } from '../../core/config/package-root.js';
import { CrawlSession } from './crawl-session.js';
import { dashboardAsset } from './dashboard-assets.js';

export interface CrawlServerOptions {
  nutch: Nutch;
  /** Required unless the server is bound to loopback. */
  token?: string;
}

const NOT_FOUND_CODES = new Set(['NUTCH_STORAGE_NOT_FOUND', 'NUTCH_INDEX_NOT_FOUND', 'NUTCH_INDEX_NO_SEARCHER']);

const crawlBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    seeds: { type: 'array', maxItems: 100_000, items: { type: 'string', minLength: 1, maxLength: 4096 } },
    rounds: { type: 'integer', minimum: 1, maximum: 1000 },
    topN: { type: 'integer', minimum: 1 },
    threads: { type: 'integer', minimum: 1, maximum: 1000 },
    index: { type: 'boolean' },
  },
} as const;

export function createCrawlServer(opts: CrawlServerOptions): { app: FastifyInstance; session: CrawlSession } {
  const { nutch } = opts;
  const session = new CrawlSession(nutch);
  // fastify's defaults drop unknown body properties silently and wrap a string into a one-item array;
  // a mistyped option must be an error instead (query strings still get their numbers coerced)
  const app = Fastify({ logger: false, forceCloseConnections: true, ajv: { customOptions: { removeAdditional: false, coerceTypes: true } } });
  if (opts.token !== undefined) requireToken(app, opts.token);
  app.setErrorHandler(async (err: unknown, _req, reply) => {
    if (isNutchError(err)) {
      const status = NOT_FOUND_CODES.has(err.code) ? 404 : err.code === 'NUTCH_USAGE' ? 400 : 500;
      return reply.code(status).send({ code: err.code, message: err.message });
    }
    const e = err as { statusCode?: number; message?: string; validation?: unknown };
    if (e.validation) return reply.code(400).send({ code: 'NUTCH_SERVER_BAD_REQUEST', message: e.message });
    return reply.code(e.statusCode ?? 500).send({ code: 'NUTCH_SERVER_ERROR', message: e.message ?? String(err) });
  });
  crawlRoutes(app, session, nutch);
  readerRoutes(app, nutch);
  const page = (reply: FastifyReply, name: string) => {
    const asset = dashboardAsset(name);
    return reply.type(asset.type).header('cache-control', 'no-cache').send(asset.body);
  };
  app.get('/', (_req, reply) => page(reply, 'index.html'));
  app.get('/assets/:name', (req, reply) => page(reply, (req.params as { name: string }).name));
  return { app, session };
}

/** Every /api request carries the token (compared in constant time). */
function requireToken(app: FastifyInstance, token: string): void {
  const expected = Buffer.from(token);
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    const header = req.headers.authorization;
    const given = header?.startsWith('Bearer ') ? header.slice(7) : new URL(req.url, 'http://x').searchParams.get('token') ?? '';
    const buf = Buffer.from(given);
    if (buf.length !== expected.length || !timingSafeEqual(buf, expected)) {
      await reply.code(401).send({ code: 'NUTCH_SERVER_UNAUTHORIZED', message: 'This server is bound beyond loopback: pass its token as `Authorization: Bearer <token>` or `?token=<token>`.' });
    }
  });
}

/** The running crawl: status, start, stop, and its events as a server-sent event stream. */
function crawlRoutes(app: FastifyInstance, session: CrawlSession, nutch: Nutch): void {
  app.get('/api/status', async () => ({ version: packageVersion(), crawlDir: nutch.crawlDir, crawl: session.state }));

  app.post('/api/crawl', { schema: { body: crawlBody } }, async (req, reply) => {
    const body = (req.body ?? {}) as { seeds?: string[]; rounds?: number; topN?: number; threads?: number; index?: boolean };
    if (!session.start(body)) return reply.code(409).send({ code: 'NUTCH_SERVER_CRAWL_RUNNING', message: 'A crawl is running already; stop it first (POST /api/crawl/stop).' });
    return reply.code(202).send(session.state);
  });

  app.post('/api/crawl/stop', async (_req, reply) => {
    if (!session.running) return reply.code(409).send({ code: 'NUTCH_SERVER_NO_CRAWL', message: 'No crawl is running.' });
    await session.stop();
    return session.state;
  });

  // The running crawl's progress events, and its state once a second, as server-sent events.
  app.get('/api/crawl/events', (req, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    send('state', session.state);
    const unsubscribe = session.subscribe((e) => (e.type === 'state' ? send('state', e.state) : send('progress', e)));
    req.raw.on('close', unsubscribe);
  });
}

/** What the crawl directory holds, through the SDK readers: CrawlDb stats, hosts, segments, search. */
function readerRoutes(app: FastifyInstance, nutch: Nutch): void {
  app.get('/api/crawldb/stats', async () => statsToJson(nutch.layout.crawlDb, await nutch.crawlDb.stats()));

  app.get('/api/hosts', { schema: { querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 10_000, default: 50 } } } } }, async (req) => {
    const { limit } = req.query as { limit: number };
    return hostRows(await nutch.crawlDb.stats({ sort: true }), limit);
  });

  app.get('/api/segments', async () => nutch.segments.list());

  app.get('/api/search', { schema: { querystring: { type: 'object', required: ['q'], properties: { q: { type: 'string', minLength: 1, maxLength: 1000 }, n: { type: 'integer', minimum: 1, maximum: 1000, default: 10 } } } } }, async (req) => {
    const { q, n } = req.query as { q: string; n: number };
    return nutch.search(q, { limit: n });
  });
}

/** readdb -stats -sort's counts by status and host, turned into one row per host, the biggest first. */
function hostRows(stats: CrawlDbStats, limit: number): { host: string; total: number; status: Record<string, number> }[] {
  const hosts = new Map<string, Record<string, number>>();
  for (const [code, byHost] of Object.entries(stats.statusByHost ?? {})) {
    for (const [host, n] of Object.entries(byHost)) {
      const row = hosts.get(host) ?? {};
      row[statusName(Number(code))] = n;
      hosts.set(host, row);
    }
  }
  const total = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  return [...hosts].map(([host, status]) => ({ host, total: total(status), status })).sort((a, b) => b.total - a.total || a.host.localeCompare(b.host)).slice(0, limit);
}
