/**
 * Nutch's RobotRulesParser + HttpRobotRulesParser: fetches `/robots.txt` through a protocol-supplied
 * fetch function and applies Nutch's status rules —
 *   2xx: parse; 3xx: follow up to 5 redirects (then allow all); 403: forbid all unless
 *   http.robots.403.allow (default true: allow all); other 4xx: allow all; 5xx and 429: defer visits;
 *   network error: allow all, not cached.
 * Rules are cached per protocol:host:port for http.robots.cache.ttl. Hosts in
 * http.robot.rules.allowlist (host names or IP addresses) skip robots.txt entirely.
 */
import type { Configuration } from '../../config/configuration.js';
import type { Logger } from '../../log.js';
import { errorMessage } from '../../errors.js';
import { RobotRulesSet } from './robot-rules.js';
import { parseRobotsTxt, ROBOTS_MAX_BYTES } from './robots-txt-parser.js';
import { RobotsCache, robotsCacheKey } from './robots-cache.js';

export interface RobotsResponse {
  code: number;
  body: Uint8Array;
  /** Location header for 3xx. */
  location?: string;
}

/** Fetches one robots.txt URL without following redirects; throws on network errors. */
export type RobotsFetch = (url: string, opts: { signal?: AbortSignal; maxBytes: number }) => Promise<RobotsResponse>;

export const MAX_ROBOTS_REDIRECTS = 5;

/** Agent names as Nutch: http.agent.name first, then http.robots.agents, lower-cased, no duplicates. */
export function robotsAgentNames(conf: Configuration): string[] {
  const names = [conf.getString('http.agent.name'), ...conf.getStrings('http.robots.agents')]
    .flatMap((n) => n.split(','))
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n && n !== '*');
  return [...new Set(names)];
}

export class RobotRulesParser {
  readonly agentNames: string[];
  private readonly allow403: boolean;
  private readonly allowlist: Set<string>;
  private readonly cache: RobotsCache;
  private readonly inflight = new Map<string, Promise<RobotRulesSet>>();

  constructor(conf: Configuration, private readonly log: Logger, agentNames?: string[]) {
    this.agentNames = agentNames ?? robotsAgentNames(conf);
    this.allow403 = conf.getBoolean('http.robots.403.allow', true);
    this.allowlist = new Set(conf.getStrings('http.robot.rules.allowlist').flatMap((s) => s.split(',')).map((s) => s.trim().toLowerCase()).filter(Boolean));
    this.cache = new RobotsCache(conf.getDuration('http.robots.cache.ttl', 24 * 3600 * 1000));
    if (this.allowlist.size) this.log.info(`robots.txt is ignored for ${this.allowlist.size} allowlisted host(s) (http.robot.rules.allowlist)`);
  }

  parse(content: Uint8Array | string): RobotRulesSet {
    return parseRobotsTxt(content, this.agentNames);
  }

  isAllowListed(url: URL): boolean {
    return this.allowlist.has(url.hostname.toLowerCase()) || this.allowlist.has(url.host.toLowerCase());
  }

  /** The rules for the host of `url`, fetched once per cache period (concurrent callers share one fetch). */
  /**
   * `allowUrl` is the caller's URL policy (the fetcher's URL filters): a robots.txt redirect to a URL
   * it rejects is not followed (robots.txt counts as unreachable: allow all), so no request reaches a
   * host the filters exclude.
   */
  async getRobotRules(url: string, fetchRobots: RobotsFetch, opts: { signal?: AbortSignal; allowUrl?: (url: string) => boolean } = {}): Promise<RobotRulesSet> {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return RobotRulesSet.allowAll();
    }
    if (this.isAllowListed(u)) return RobotRulesSet.allowAll();
    const key = robotsCacheKey(u);
    const cached = this.cache.get(key);
    if (cached) return cached;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.load(u, key, fetchRobots, opts.signal, opts.allowUrl).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async load(u: URL, key: string, fetchRobots: RobotsFetch, signal?: AbortSignal, allowUrl?: (url: string) => boolean): Promise<RobotRulesSet> {
    let target = new URL('/robots.txt', u);
    let rules: RobotRulesSet;
    let cacheIt = true;
    try {
      let redirects = 0;
      for (;;) {
        const r = await fetchRobots(target.href, { signal, maxBytes: ROBOTS_MAX_BYTES });
        if (r.code >= 300 && r.code < 400 && r.location) {
          if (++redirects > MAX_ROBOTS_REDIRECTS) {
            rules = RobotRulesSet.allowAll();
            break;
          }
          target = new URL(r.location, target);
          if (target.protocol !== 'http:' && target.protocol !== 'https:') {
            rules = RobotRulesSet.allowAll();
            break;
          }
          if (allowUrl && !allowUrl(target.href)) {
            this.log.info(`robots.txt of ${u.host} redirects to ${target.href.slice(0, 200)}, which the URL filters reject: not followed, allowing all`);
            rules = RobotRulesSet.allowAll();
            break;
          }
          continue;
        }
        if (r.code >= 200 && r.code < 300) rules = this.parse(r.body);
        else if (r.code === 403 && !this.allow403) rules = RobotRulesSet.forbidAll();
        else if (r.code === 429 || r.code >= 500) {
          rules = RobotRulesSet.deferVisits();
          cacheIt = false;
        } else rules = RobotRulesSet.allowAll();
        break;
      }
    } catch (err) {
      this.log.debug(`robots.txt of ${u.host} not fetched (${errorMessage(err)}): allowing all, not cached`);
      return RobotRulesSet.allowAll();
    }
    if (cacheIt) this.cache.set(key, rules);
    return rules;
  }
}
