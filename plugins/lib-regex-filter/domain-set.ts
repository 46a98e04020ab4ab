/**
 * The entry set shared by urlfilter-domain and urlfilter-domaindenylist: one public suffix, domain
 * or host name per line (trimmed, lower-cased; blank lines and '#' comments skipped), and the
 * lookup Nutch does — the URL's public suffix, its domain, or its exact host is listed.
 */
import { hostParts } from '../../sdk/plugin.js';
import type { RuleSource } from './rule-source.js';
import { parseURL } from './java-url.js';

export function readDomainSet(source: RuleSource): Set<string> {
  const set = new Set<string>();
  for (const raw of source.lines) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    set.add(line.toLowerCase().replace(/\.$/, ''));
  }
  return set;
}

/** true/false whether the URL's suffix, domain or host is in the set; null when the URL has no host. */
export function listedIn(set: Set<string>, url: string): boolean | null {
  const parts = parseURL(url);
  if (!parts || parts.host === '') return null;
  const { host: bare, domain, suffix } = hostParts(parts.host);
  return (suffix !== null && set.has(suffix)) || set.has(domain) || set.has(bare);
}
