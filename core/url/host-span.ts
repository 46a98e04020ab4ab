/**
 * Where the host stands in a `scheme://[userinfo@]host[:port]…` URL, found by scanning the text (no
 * WHATWG parsing, which would rewrite the URL): what a URL normaliser needs to replace the host or
 * the scheme and leave every other character as written. Null when there is no `://` or the host is
 * an IPv6 literal (`[…]`).
 */
export interface HostSpan {
  /** Index of `://`; the scheme is `url.slice(0, schemeEnd)`. */
  schemeEnd: number;
  hostStart: number;
  /** End of the host: the port's `:` or the end of the authority. */
  hostEnd: number;
  /** A `:port` follows the host. */
  hasPort: boolean;
}

export function hostSpan(url: string): HostSpan | null {
  const schemeEnd = url.indexOf('://');
  if (schemeEnd <= 0) return null;
  const authStart = schemeEnd + 3;
  let authEnd = authStart;
  while (authEnd < url.length) {
    const c = url.charCodeAt(authEnd);
    if (c === 0x2f || c === 0x3f || c === 0x23) break; // / ? #
    authEnd++;
  }
  const at = url.lastIndexOf('@', authEnd - 1);
  const hostStart = at >= authStart ? at + 1 : authStart;
  if (url.charCodeAt(hostStart) === 0x5b) return null;
  const colon = url.indexOf(':', hostStart);
  const hasPort = colon >= 0 && colon < authEnd;
  return { schemeEnd, hostStart, hostEnd: hasPort ? colon : authEnd, hasPort };
}
