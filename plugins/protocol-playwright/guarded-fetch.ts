/**
 * With http.address.deny or http.proxy.host set, Chromium gets no network of its own: the browser is
 * launched with every host name mapped to nothing (--host-resolver-rules), and each request the page
 * makes — its document, scripts, XHR, redirects — is fetched here through HttpDispatchers, the same
 * SSRF-guarded connector and proxy protocol-http uses, then handed back to the page. A refused
 * address fails that request (the page renders without it) and is logged once per host; a refused
 * document fails the fetch as protocol-http's would.
 */
import { request } from 'undici';
import type { Request } from 'playwright-core';
import type { HttpDispatchers } from '../../sdk/plugin.js';
import type { DocumentResponse } from './document-route.js';

/** Chromium resolves no name itself, so nothing reaches the network but the routed requests. */
export const NO_BROWSER_NETWORK_ARG = '--host-resolver-rules=MAP * ~NOTFOUND';

/** Request headers Chromium sets that a Node-side fetch must not copy. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'accept-encoding', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

export type RoutedFetch = (req: Request, limitBytes: number) => Promise<DocumentResponse>;

export function guardedFetch(dispatchers: HttpDispatchers, timeoutMs: number): RoutedFetch {
  return async (req, limitBytes) => {
    const url = new URL(req.url());
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(await req.allHeaders())) if (!HOP_HEADERS.has(k.toLowerCase()) && !k.startsWith(':')) headers[k] = v;
    // an unencoded answer: the page is handed the bytes as they are
    headers['accept-encoding'] = 'identity';
    const res = await request(url, {
      method: req.method() as 'GET',
      headers,
      body: req.postDataBuffer() ?? undefined,
      dispatcher: dispatchers.dispatcherFor(url),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size > limitBytes) {
        res.body.destroy();
        break;
      }
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(k === 'set-cookie' ? '\n' : ', ') : String(v);
    return { status: res.statusCode, headers: out, body: Buffer.concat(chunks) };
  };
}

