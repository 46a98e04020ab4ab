/**
 * Protocol — combine rule: FIRST MATCH by selection, not by trying. The protocol for a URL is a
 * `url:<regex>=<extension-id>` entry of `host-protocol-mapping` whose regex finds a match in the URL
 * (nutch-ts: render only some pages of a host with a browser), then the host mapping (exact host, then
 * its parent domains), then a `protocol:<scheme>` mapping in the same property, then the first extension
 * (by id) whose `protocolName` parameter lists the scheme. Otherwise NUTCH_PROTOCOL_NOT_FOUND.
 */
import { NutchError } from '../errors.js';
import type { CrawlDatum } from '../model/crawl-datum.js';
import type { ProtocolOutput } from '../model/protocol-status.js';
import type { ContentLease } from '../protocol/content-budget.js';

export interface RobotRules {
  isAllowed(url: string): boolean;
  /** Crawl-delay in milliseconds, or -1 when none. */
  getCrawlDelay(): number;
  /** True when robots.txt could not be read and visits must be deferred (5xx/429). */
  isDeferVisits?(): boolean;
  getSitemaps?(): string[];
}

export interface Protocol {
  /**
   * `memory`, when the fetcher passes one, is this response's share of fetcher.content.budget: reserve
   * bytes on it before holding them, and when it refuses, drop the response (EXCEPTION, retried later).
   */
  getProtocolOutput(url: string, datum: CrawlDatum, opts?: { signal?: AbortSignal; memory?: ContentLease }): Promise<ProtocolOutput>;
  /** `allowUrl`: the caller's URL policy; robots.txt redirects it rejects must not be followed. */
  getRobotRules?(url: string, datum: CrawlDatum | null, opts?: { signal?: AbortSignal; allowUrl?: (url: string) => boolean }): Promise<RobotRules>;
  /** Releases connections; called when the crawler closes. */
  close?(): Promise<void>;
}

export interface ProtocolCandidate {
  extensionId: string;
  /** Schemes from the `protocolName` parameter (comma-separated there). */
  schemes: string[];
  get(): Promise<Protocol>;
}

export class ProtocolFactory {
  private readonly hostMapping = new Map<string, string>();
  private readonly schemeMapping = new Map<string, string>();
  private readonly urlMapping: { regex: RegExp; id: string }[] = [];

  /** @param mapping `host-protocol-mapping` entries: "host:extension-id", "protocol:scheme:extension-id" or "url:regex=extension-id". */
  constructor(private readonly candidates: readonly ProtocolCandidate[], mapping: readonly string[] = []) {
    for (const entry of mapping) {
      if (entry.startsWith('url:')) {
        // extension ids hold no '=', so the last one separates the regex from the id
        const eq = entry.lastIndexOf('=');
        const source = entry.slice(4, eq);
        if (eq < 0 || !source || eq === entry.length - 1) throw new NutchError('NUTCH_CONFIG_INVALID_VALUE', `Invalid value for property "host-protocol-mapping": entry ${JSON.stringify(entry)} is not url:<regex>=<extension-id>.`, { property: 'host-protocol-mapping' });
        let regex: RegExp;
        try {
          regex = new RegExp(source);
        } catch (err) {
          throw new NutchError('NUTCH_CONFIG_INVALID_VALUE', `Invalid value for property "host-protocol-mapping": entry ${JSON.stringify(entry)}: ${(err as Error).message}.`, { property: 'host-protocol-mapping' });
        }
        this.urlMapping.push({ regex, id: entry.slice(eq + 1) });
        continue;
      }
      // The extension id may itself hold a colon (`<plugin>:<name>`), so split at the first separator only.
      const scheme = /^protocol[:=]([a-z][a-z0-9+.-]*)[:=](.+)$/i.exec(entry);
      const host = /^([^:=]+)[:=](.+)$/.exec(entry);
      if (scheme) this.schemeMapping.set(scheme[1]!.toLowerCase(), scheme[2]!);
      else if (host) this.hostMapping.set(host[1]!.toLowerCase(), host[2]!);
      else {
        throw new NutchError('NUTCH_CONFIG_INVALID_VALUE', `Invalid value for property "host-protocol-mapping": entry ${JSON.stringify(entry)} is neither host:extension-id nor protocol:scheme:extension-id.`, { property: 'host-protocol-mapping' });
      }
    }
  }

  /** Every extension id the mapping names (the chains warn about those that are not active). */
  mappingTargets(): string[] {
    return [...new Set([...this.urlMapping.map((m) => m.id), ...this.hostMapping.values(), ...this.schemeMapping.values()])];
  }

  /** The candidate that serves the URL, without instantiating it. */
  select(url: string): ProtocolCandidate {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new NutchError('NUTCH_PROTOCOL_NOT_FOUND', `No protocol for malformed URL ${JSON.stringify(url.slice(0, 200))}.`, { url });
    }
    const scheme = parsed.protocol.slice(0, -1).toLowerCase();
    const byId = (id: string) => this.candidates.find((c) => c.extensionId === id);
    for (const m of this.urlMapping) if (byId(m.id) && m.regex.test(url)) return byId(m.id)!;
    let host = parsed.hostname.toLowerCase();
    while (host) {
      const id = this.hostMapping.get(host);
      if (id && byId(id)) return byId(id)!;
      const dot = host.indexOf('.');
      host = dot < 0 ? '' : host.slice(dot + 1);
    }
    const mapped = this.schemeMapping.get(scheme);
    if (mapped && byId(mapped)) return byId(mapped)!;
    const found = this.candidates.find((c) => c.schemes.includes(scheme));
    if (found) return found;
    throw new NutchError(
      'NUTCH_PROTOCOL_NOT_FOUND',
      `No Protocol extension handles "${scheme}:" (URL ${url.slice(0, 200)}). Active protocols: ${this.candidates.map((c) => `${c.extensionId} (${c.schemes.join(',')})`).join('; ') || 'none'} — include a protocol plugin in plugin.includes.`,
      { url, point: 'Protocol' },
    );
  }

  getProtocol(url: string): Promise<Protocol> {
    return this.select(url).get();
  }
}
