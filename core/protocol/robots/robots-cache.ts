/** Robot rules cached per `protocol:host:port` with an expiry (http.robots.cache.ttl), as Nutch's CACHE. */
import type { RobotRulesSet } from './robot-rules.js';

export function robotsCacheKey(url: URL): string {
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  const port = url.port || (scheme === 'https' ? '443' : scheme === 'http' ? '80' : scheme === 'ftp' ? '21' : '');
  return `${scheme}:${url.hostname.toLowerCase()}:${port}`;
}

export class RobotsCache {
  private readonly entries = new Map<string, { rules: RobotRulesSet; expires: number }>();

  constructor(private readonly ttlMs: number, private readonly maxEntries = 100_000) {}

  get(key: string, now = Date.now()): RobotRulesSet | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e.rules;
  }

  set(key: string, rules: RobotRulesSet, now = Date.now()): void {
    if (this.entries.size >= this.maxEntries) {
      // drop the oldest insertion: Map keeps insertion order
      const first = this.entries.keys().next();
      if (!first.done) this.entries.delete(first.value);
    }
    this.entries.delete(key);
    this.entries.set(key, { rules, expires: now + this.ttlMs });
  }

  get size(): number {
    return this.entries.size;
  }
}
