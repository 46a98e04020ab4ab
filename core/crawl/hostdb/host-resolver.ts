/**
 * The DNS check of updatehostdb -checkNew/-checkKnown/-checkFailed, as Nutch's ResolverThread:
 * a host resolves, is unknown (a DNS failure), or the lookup failed otherwise (logged, host unchanged).
 *
 * `hostdb.resolver.hosts.file` (a nutch-ts addition) names a file in /etc/hosts format; when set,
 * names are resolved through it alone, so an offline or air-gapped crawl (and the tests) can check
 * hosts without asking a DNS server: a name absent from the file is unknown.
 */
import dns from 'node:dns';
import fs from 'node:fs';
import net from 'node:net';
import { NutchError } from '../../errors.js';

export type Resolution = 'known' | 'unknown' | 'error';

export interface HostResolver {
  resolve(host: string): Promise<{ result: Resolution; reason?: string }>;
}

const UNKNOWN_CODES = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

export function dnsResolver(): HostResolver {
  return {
    async resolve(host) {
      if (net.isIP(host)) return { result: 'known' };
      try {
        await dns.promises.lookup(host);
        return { result: 'known' };
      } catch (err) {
        const code = (err as { code?: string }).code ?? '';
        return UNKNOWN_CODES.has(code) ? { result: 'unknown' } : { result: 'error', reason: (err as Error).message };
      }
    },
  };
}

/** Names in an /etc/hosts-format file; everything else is unknown. */
export function hostsFileResolver(file: string): HostResolver {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new NutchError('NUTCH_CONFIG_FILE_NOT_FOUND', `hostdb.resolver.hosts.file ${file} cannot be read: ${(err as Error).message}`, { property: 'hostdb.resolver.hosts.file', file });
  }
  const names = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const fields = line.replace(/#.*/, '').trim().split(/\s+/).filter(Boolean);
    for (const name of fields.slice(1)) names.add(name.toLowerCase());
  }
  return {
    async resolve(host) {
      return { result: net.isIP(host) || names.has(host.toLowerCase()) ? 'known' : 'unknown' };
    },
  };
}
