/** HTTP headers for every HTTP protocol: request headers from the http.* properties, as Nutch's HttpBase builds them, and response headers as Content metadata. */
import type { Configuration } from '../config/configuration.js';

/** Nutch's agent string: `name/version (description; url; email)`. */
export function agentString(conf: Configuration): string {
  const name = conf.getString('http.agent.name').trim();
  const version = conf.getString('http.agent.version').trim();
  const extras = [conf.getString('http.agent.description'), conf.getString('http.agent.url'), conf.getString('http.agent.email')]
    .map((s) => s.trim())
    .filter(Boolean);
  let ua = name;
  if (version) ua += `/${version}`;
  if (extras.length) ua += ` (${extras.join('; ')})`;
  return ua;
}

export function baseHeaders(conf: Configuration): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': agentString(conf),
    'accept-encoding': 'gzip, deflate, br',
  };
  const accept = conf.getString('http.accept');
  const language = conf.getString('http.accept.language');
  const charset = conf.getString('http.accept.charset');
  if (accept) headers.accept = accept;
  if (language) headers['accept-language'] = language;
  if (charset) headers['accept-charset'] = charset;
  const from = conf.getString('http.agent.email').trim();
  if (from) headers.from = from;
  return headers;
}

/** undici's header object -> Content metadata (multi-valued, Nutch's header names preserved as sent). */
export function headersToMetadata(headers: Record<string, string | string[] | undefined>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[canonicalHeaderName(k)] = Array.isArray(v) ? v.map(String) : [String(v)];
  }
  return out;
}

/** content-type -> Content-Type, so metadata keys match Nutch's Response constants. */
const canonicalNames = new Map<string, string>();

export function canonicalHeaderName(name: string): string {
  let c = canonicalNames.get(name);
  if (c === undefined) {
    c = name.replace(/(^|-)([a-z])/g, (_, dash: string, ch: string) => dash + ch.toUpperCase());
    if (canonicalNames.size < 1000) canonicalNames.set(name, c);
  }
  return c;
}

export function firstHeader(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
