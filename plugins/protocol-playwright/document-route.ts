/**
 * The page's own document request, answered once by Chromium's network stack without following
 * redirects: an HTML document with a 2xx status is handed to the page to render; anything else is
 * aborted and answered from what was served, as protocol-http would. Subresources go through, except
 * the types in playwright.block.resources; with a routed fetch (guarded-fetch.ts) every request is
 * fetched by it and fulfilled, so Chromium never connects anywhere itself.
 */
import type { Page, Route } from 'playwright-core';
import type { RoutedFetch } from './guarded-fetch.js';

/** What the page's own document request answered (before any rendering). */
export interface DocumentResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const HTML = /^\s*(text\/html|application\/xhtml\+xml)\b/i;

/** Only a successful HTML document is handed to the page and rendered. */
export function isRendered(doc: DocumentResponse | null): doc is DocumentResponse {
  return doc !== null && doc.status >= 200 && doc.status < 300 && HTML.test(doc.headers['content-type'] ?? '');
}

/** The document once it arrived, or the error that kept it from arriving. */
export interface DocumentCapture {
  readonly response: DocumentResponse | null;
  readonly error: unknown;
}

export interface RouteOptions {
  timeoutMs: number;
  blocked: ReadonlySet<string>;
  /** When set (guarded-fetch.ts), every request is fetched through it instead of by Chromium. */
  fetch?: RoutedFetch;
  /** Bytes a routed subresource may have. */
  limitBytes?: number;
  /** Called with each routed request that failed (a refused address, a network error). */
  onRefused?: (url: string, err: unknown) => void;
}

export async function routeDocument(page: Page, o: RouteOptions): Promise<DocumentCapture> {
  const capture: { response: DocumentResponse | null; error: unknown } = { response: null, error: null };
  let first = true;
  await page.route('**/*', async (route: Route) => {
    const req = route.request();
    if (first && req.isNavigationRequest() && req.frame() === page.mainFrame()) {
      first = false;
      let doc: DocumentResponse;
      try {
        if (o.fetch) {
          doc = capture.response = await o.fetch(req, o.limitBytes ?? Number.MAX_SAFE_INTEGER);
        } else {
          const res = await route.fetch({ maxRedirects: 0, timeout: o.timeoutMs });
          doc = capture.response = { status: res.status(), headers: res.headers(), body: await res.body() };
        }
      } catch (err) {
        capture.error = err;
        return route.abort('failed').catch(() => undefined);
      }
      if (isRendered(doc)) {
        // the body is already decoded: its wire encoding and length no longer apply
        const { 'content-encoding': _e, 'content-length': _l, ...headers } = doc.headers;
        return route.fulfill({ status: doc.status, headers, body: doc.body }).catch(() => undefined);
      }
      return route.abort('aborted').catch(() => undefined);
    }
    if (o.blocked.has(req.resourceType())) return route.abort('blockedbyclient').catch(() => undefined);
    if (!o.fetch) return route.continue().catch(() => undefined);
    let res: DocumentResponse;
    try {
      res = await o.fetch(req, o.limitBytes ?? Number.MAX_SAFE_INTEGER);
    } catch (err) {
      o.onRefused?.(req.url(), err);
      return route.abort('blockedbyclient').catch(() => undefined);
    }
    const { 'content-encoding': _e, 'content-length': _l, ...headers } = res.headers;
    return route.fulfill({ status: res.status, headers, body: res.body }).catch(() => undefined);
  });
  return capture;
}
