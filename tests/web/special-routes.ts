/**
 * `/special/*` routes of the test web: servers that misbehave on purpose, for the fetcher's and
 * protocol-http's bad-input tests. Every route is on every host.
 *
 *   /special/status/<code>[?retry-after=s]   that status, small body (Retry-After when given)
 *   /special/trickle?bytes=N&interval=ms      N bytes of HTML, one byte per interval
 *   /special/big?bytes=N                      N bytes of text, streamed in 64 KiB chunks
 *   /special/gzip | deflate | br              the home page, compressed
 *   /special/gzip-bomb?bytes=N                N zero bytes, gzip-compressed (tiny on the wire)
 *   /special/gzip-stream?bytes=N              N zero bytes gzip-compressed as they are sent, no
 *                                             Content-Length: a bomb of any size without holding it
 *   /special/endless?chunk=N&interval=ms      text in N-byte chunks (default 64 KiB) forever, chunked,
 *                                             one chunk per interval (default: as fast as the client reads)
 *   /special/last-modified                    304 when If-Modified-Since >= 2020-01-01, else 200
 *   /special/garbage                          a status line that is not HTTP
 *   /special/bad-length                       Content-Length 1000, 10 bytes, then close
 *   /special/reset                            headers and part of the body, then a TCP reset
 *   /special/hang                             never answers
 *   /special/loop/<n>                         302 to /special/loop/<n+1>, forever
 *   /special/redirect-to?url=U&code=C         C (default 302) to U
 *   /special/binary                           application/octet-stream
 *   /special/echo-headers                     the request headers as JSON
 *   /special/no-type[.ext]                    the home page without a Content-Type header
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync, deflateSync, brotliCompressSync, createGzip } from 'node:zlib';
import type { Socket } from 'node:net';

export interface SpecialArgs {
  req: IncomingMessage;
  res: ServerResponse;
  u: URL;
  record: { status: number };
  page(): string;
  compressed: Map<string, Buffer>;
  url(path: string): string;
}

export const LAST_MODIFIED = Date.UTC(2020, 0, 1);

function sendBody(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': String(buf.length), ...extra });
  res.end(buf);
}

export function handleSpecial({ req, res, u, page, compressed, url }: SpecialArgs): void {
  const path = u.pathname;
  const num = (name: string, dflt: number) => {
    const v = Number(u.searchParams.get(name));
    return Number.isFinite(v) && u.searchParams.has(name) ? v : dflt;
  };
  const status = /^\/special\/status\/(\d{3})$/.exec(path);
  if (status) {
    const extra: Record<string, string> = {};
    if (u.searchParams.has('retry-after')) extra['Retry-After'] = u.searchParams.get('retry-after')!;
    return sendBody(res, Number(status[1]), 'text/html', `<html><body>status ${status[1]}</body></html>`, extra);
  }
  const loop = /^\/special\/loop\/(\d+)$/.exec(path);
  if (loop) {
    res.writeHead(302, { Location: `/special/loop/${Number(loop[1]) + 1}`, 'Content-Length': '0' });
    return void res.end();
  }
  switch (path) {
    case '/special/trickle': {
      const bytes = num('bytes', 100);
      const interval = num('interval', 20);
      res.writeHead(200, { 'Content-Type': 'text/html' });
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= bytes || res.destroyed) {
          clearInterval(timer);
          if (!res.destroyed) res.end();
          return;
        }
        res.write('x');
        sent++;
      }, interval);
      res.on('close', () => clearInterval(timer));
      return;
    }
    case '/special/big': {
      const bytes = num('bytes', 1 << 20);
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(bytes) });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let left = bytes;
      const pump = () => {
        while (left > 0 && !res.destroyed) {
          const n = Math.min(left, chunk.length);
          left -= n;
          if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      return pump();
    }
    case '/special/gzip':
    case '/special/deflate':
    case '/special/br': {
      const kind = path.slice('/special/'.length);
      let body = compressed.get(kind);
      if (!body) {
        const raw = Buffer.from(page());
        body = kind === 'gzip' ? gzipSync(raw) : kind === 'deflate' ? deflateSync(raw) : brotliCompressSync(raw);
        compressed.set(kind, body);
      }
      return sendBody(res, 200, 'text/html; charset=utf-8', body, { 'Content-Encoding': kind });
    }
    case '/special/gzip-bomb': {
      const bytes = num('bytes', 50 << 20);
      const key = `bomb:${bytes}`;
      let body = compressed.get(key);
      if (!body) compressed.set(key, (body = gzipSync(Buffer.alloc(bytes))));
      return sendBody(res, 200, 'text/html', body, { 'Content-Encoding': 'gzip' });
    }
    case '/special/gzip-stream': {
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' });
      const gzip = createGzip({ level: 1 });
      gzip.pipe(res);
      const zeros = Buffer.alloc(1 << 20);
      let left = num('bytes', 1 << 30);
      // generated as the client reads (backpressure): a 2 GiB bomb never exists in the test's memory
      const pump = () => {
        while (left > 0 && !res.destroyed) {
          const n = Math.min(left, zeros.length);
          left -= n;
          if (!gzip.write(n === zeros.length ? zeros : zeros.subarray(0, n))) return void gzip.once('drain', pump);
        }
        if (!res.destroyed) gzip.end();
      };
      res.on('close', () => gzip.destroy());
      return pump();
    }
    case '/special/endless': {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const chunk = Buffer.alloc(Math.max(1, num('chunk', 64 * 1024)), 'e');
      const interval = num('interval', 0);
      if (interval > 0) {
        const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(chunk)), interval);
        res.on('close', () => clearInterval(timer));
        return;
      }
      const pump = () => {
        while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', pump);
      };
      return pump();
    }
    case '/special/last-modified': {
      const ims = req.headers['if-modified-since'];
      if (ims && Date.parse(ims) >= LAST_MODIFIED) {
        res.writeHead(304, { 'Last-Modified': new Date(LAST_MODIFIED).toUTCString() });
        return void res.end();
      }
      return sendBody(res, 200, 'text/html', page(), { 'Last-Modified': new Date(LAST_MODIFIED).toUTCString() });
    }
    case '/special/garbage': {
      const s = res.socket as Socket;
      s.write('HTPT/9.9 banana\r\nthis is not a header\r\n\r\nhello');
      s.end();
      return;
    }
    case '/special/bad-length': {
      const s = res.socket as Socket;
      s.write('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000\r\n\r\n0123456789');
      s.end();
      return;
    }
    case '/special/reset': {
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': '100000' });
      res.write(Buffer.alloc(1000, 'r'));
      setTimeout(() => (res.socket as Socket | null)?.resetAndDestroy(), 20);
      return;
    }
    case '/special/hang':
      return;
    case '/special/redirect-to': {
      res.writeHead(num('code', 302), { Location: u.searchParams.get('url') ?? url('/'), 'Content-Length': '0' });
      return void res.end();
    }
    case '/special/binary':
      return sendBody(res, 200, 'application/octet-stream', Buffer.from([0, 1, 2, 3, 255, 254, 0, 0]));
    case '/special/no-type':
    case '/special/no-type.pdf': {
      const body = Buffer.from(path.endsWith('.pdf') ? 'binary stuff' : page());
      res.writeHead(200, { 'Content-Length': String(body.length) });
      return void res.end(body);
    }
    case '/special/echo-headers':
      return sendBody(res, 200, 'application/json', JSON.stringify(req.headers));
    default:
      return sendBody(res, 404, 'text/plain', 'no such special route\n');
  }
}
