/**
 * HTTP response code -> ProtocolStatus, for every HTTP protocol (protocol-http, protocol-playwright),
 * as Nutch's HttpBase.getProtocolOutput: 200 success (nutch-ts takes every 2xx), 304 not modified, 3xx redirects (301/305/308/other MOVED, 302/303/307 TEMP_MOVED,
 * with the absolute target as argument), 400 and 410 GONE, 401 ACCESS_DENIED, 404 NOTFOUND,
 * everything else EXCEPTION with the code in the message (the fetcher retries those).
 */
import { ProtocolStatusCode, protocolStatus, type ProtocolStatus } from '../model/protocol-status.js';

export function statusForCode(code: number, url: string, location: string | undefined): ProtocolStatus {
  if (code >= 200 && code < 300) return protocolStatus(ProtocolStatusCode.SUCCESS);
  if (code === 304) return protocolStatus(ProtocolStatusCode.NOTMODIFIED);
  if (code >= 300 && code < 400) {
    if (!location) return protocolStatus(ProtocolStatusCode.EXCEPTION, `Http code=${code} without Location header, url=${url}`);
    let target: string;
    try {
      target = new URL(location, url).href;
    } catch {
      return protocolStatus(ProtocolStatusCode.EXCEPTION, `Http code=${code} with malformed Location ${JSON.stringify(location.slice(0, 200))}, url=${url}`);
    }
    const temp = code === 302 || code === 303 || code === 307;
    return protocolStatus(temp ? ProtocolStatusCode.TEMP_MOVED : ProtocolStatusCode.MOVED, target);
  }
  if (code === 400 || code === 410) return protocolStatus(ProtocolStatusCode.GONE, `Http: ${code} url=${url}`);
  if (code === 401) return protocolStatus(ProtocolStatusCode.ACCESS_DENIED, `Http: ${code} url=${url}`);
  if (code === 404) return protocolStatus(ProtocolStatusCode.NOTFOUND, `Http: ${code} url=${url}`);
  return protocolStatus(ProtocolStatusCode.EXCEPTION, `Http code=${code}, url=${url}`);
}
