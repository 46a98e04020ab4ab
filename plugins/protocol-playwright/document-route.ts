/**
 * The page's own document request, answered once by Chromium's network stack without following
 * redirects: an HTML document with a 2xx status is handed to the page to render; anything else is
 * aborted and answered from what was served, as protocol-http would. Subresources go through, except
 * the types in playwright.block.resources.
 */
import type { Page, Route } from 'playwright-core';

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

export async function routeDocument(page: Page, o: { timeoutMs: number; blocked: ReadonlySet<string> }): Promise<DocumentCapture> {
  const capture: { response: DocumentResponse | null; error: unknown } = { response: null, error: null };
  let first = true;
  await page.route('**/*', async (route: Route) => {
    const req = route.request();
    if (first && req.isNavigationRequest() && req.frame() === page.mainFrame()) {
      first = false;
      let doc: DocumentResponse;
      try {
        const res = await route.fetch({ maxRedirects: 0, timeout: o.timeoutMs });
        doc = capture.response = { status: res.status(), headers: res.headers(), body: await res.body() };
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
    return route.continue().catch(() => undefined);
  });
  return capture;
}
