/**
 * The HTTP messages of a WARC response and request record, rebuilt from what the fetcher stored.
 * nutch-ts keeps response headers as Content metadata (name -> values), not verbatim, so the response
 * header block is rebuilt from them as Nutch's WARCUtils.fixHttpHeaders rebuilds stored ones: the
 * body is stored decoded, so Content-Encoding and Transfer-Encoding go and Content-Length is the
 * stored length. Keys nutch-ts adds itself (`nutch.*`, `_…_`, Content-Encoding-Original) are not headers.
 */
import { STATUS_CODES } from 'node:http';
import type { Content } from '../../model/content.js';
import { ContentMeta } from '../../model/content.js';

/** Content metadata key of the request protocol-http sent, stored when `store.http.request` is true (Nutch's `_request_`). */
export const REQUEST_KEY = '_request_';

const NOT_HEADERS = /^(nutch\.|_)|^Content-Encoding-Original$/;
const DROPPED = new Set(['content-encoding', 'transfer-encoding', 'content-length']);

/** The HTTP status of stored content, or null when it did not come over HTTP (file:, ftp:). */
export function httpStatusOf(content: Content): number | null {
  const code = Number(content.metadata[ContentMeta.RESPONSE_CODE]?.[0]);
  return Number.isInteger(code) && code >= 100 && code <= 599 ? code : null;
}

export function responseHead(content: Content, status: number): Buffer {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Unknown'}`];
  for (const [name, values] of Object.entries(content.metadata)) {
    if (NOT_HEADERS.test(name) || DROPPED.has(name.toLowerCase())) continue;
    for (const v of values) lines.push(`${name}: ${v.replace(/[\r\n]+/g, ' ')}`);
  }
  lines.push(`Content-Length: ${content.content.length}`);
  return Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1');
}

/** The stored request (request line and headers), ending with the blank line; null when none was stored. */
export function storedRequest(content: Content): Buffer | null {
  const raw = content.metadata[REQUEST_KEY]?.[0];
  if (!raw) return null;
  return Buffer.from(raw.endsWith('\r\n\r\n') ? raw : raw.replace(/(\r\n)*$/, '') + '\r\n\r\n', 'latin1');
}
