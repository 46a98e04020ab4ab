/**
 * urlnormalizer-ajax, as Nutch's AjaxURLNormalizer: Google's (retired) AJAX crawling scheme. In every
 * scope but `indexer`, a "pretty" URL `…#!state` becomes the "ugly" URL the server answers with a
 * snapshot, `…?_escaped_fragment_=state` (or `&_escaped_fragment_=` after an existing query), the state
 * escaped as the scheme says (control characters, space, `#`, `%`, `&`, `+` and bytes 0x7F–0xFF as
 * %XX). In the `indexer` scope the ugly URL is turned back into the pretty one, so the index shows the
 * address users know. URLs without either form pass unchanged.
 */
import type { NormalizerScope, URLNormalizer } from '../../sdk/plugin.js';

const HASHBANG = '#!';
const ESCAPED = '_escaped_fragment_=';

/** The scheme's escaping of the state: UTF-8 bytes, the reserved ones as %XX. */
export function escapeFragment(state: string): string {
  let out = '';
  for (const byte of Buffer.from(state, 'utf8')) {
    const reserved = byte <= 0x20 || byte === 0x23 || byte === 0x25 || byte === 0x26 || byte === 0x2b || byte >= 0x7f;
    out += reserved ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(byte);
  }
  return out;
}

function unescapeFragment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export class AjaxURLNormalizer implements URLNormalizer {
  normalize(url: string, scope: NormalizerScope): string | null {
    if (scope === 'indexer') return url.includes(ESCAPED) ? this.toPretty(url) : url;
    const at = url.indexOf(HASHBANG);
    if (at < 0) return url;
    const base = url.slice(0, at);
    const separator = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
    return `${base}${separator}${ESCAPED}${escapeFragment(url.slice(at + HASHBANG.length))}`;
  }

  /** `…?a=1&_escaped_fragment_=state&b=2` → `…?a=1&b=2#!state` (the other parameters kept in order). */
  private toPretty(url: string): string {
    const hash = url.indexOf('#');
    const noHash = hash < 0 ? url : url.slice(0, hash);
    const q = noHash.indexOf('?');
    if (q < 0) return url;
    let state: string | null = null;
    const kept: string[] = [];
    for (const param of noHash.slice(q + 1).split('&')) {
      if (state === null && param.startsWith(ESCAPED)) state = param.slice(ESCAPED.length);
      else if (param) kept.push(param);
    }
    if (state === null) return url;
    return `${noHash.slice(0, q)}${kept.length ? `?${kept.join('&')}` : ''}${HASHBANG}${unescapeFragment(state)}`;
  }
}
