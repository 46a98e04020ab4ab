/**
 * robots.txt parsing as RFC 9309: groups of user-agent lines followed by rules; the groups whose
 * product token equals one of our agent names (case-insensitive) are merged, else the `*` groups;
 * allow/disallow by longest match with `*` and a trailing `$`, an allow winning a tie; Crawl-delay
 * and Sitemap lines are read too (not in the RFC, as Google and crawler-commons read them).
 * Only the first 500 KiB are parsed (RFC 9309 §2.5). Written for nutch-ts; never throws on input.
 */
import { RobotRulesSet, normalizePattern, type RobotRule } from './robot-rules.js';

export { normalizePattern };

export const ROBOTS_MAX_BYTES = 500 * 1024;

const USER_AGENT = new Set(['user-agent', 'useragent', 'user agent', 'user-agents']);
const ALLOW = new Set(['allow']);
const DISALLOW = new Set(['disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw']);
const CRAWL_DELAY = new Set(['crawl-delay', 'crawldelay', 'crawl delay']);
const SITEMAP = new Set(['sitemap', 'site-map']);

interface Group {
  agents: string[];
  rules: RobotRule[];
  crawlDelayMs: number;
}

/** The product token of a user-agent value: the leading run of [a-zA-Z_-], lower-cased; `*` stays `*`. */
export function productToken(value: string): string {
  const v = value.trim();
  if (v.startsWith('*')) return '*';
  const m = /^[a-zA-Z_-]+/.exec(v);
  return m ? m[0].toLowerCase() : '';
}

/**
 * Parses robots.txt bytes for the given agent names (http.agent.name + http.robots.agents).
 * `url` is only used in messages.
 */
export function parseRobotsTxt(content: Uint8Array | string, agentNames: readonly string[]): RobotRulesSet {
  let text = typeof content === 'string' ? content.slice(0, ROBOTS_MAX_BYTES) : new TextDecoder('utf-8', { fatal: false }).decode(content.subarray(0, ROBOTS_MAX_BYTES));
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const names = new Set(agentNames.map((a) => a.trim().toLowerCase()).filter(Boolean));
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;

  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const hash = rawLine.indexOf('#');
    const line = (hash >= 0 ? rawLine.slice(0, hash) : rawLine).trim();
    if (!line) continue;
    let sep = line.indexOf(':');
    let key: string;
    let value: string;
    if (sep < 0) {
      // tolerate "Disallow /path" (a missing colon), as Google's parser does
      const m = /^([A-Za-z-]+)\s+(.*)$/.exec(line);
      if (!m) continue;
      key = m[1]!.toLowerCase();
      value = m[2]!.trim();
    } else {
      key = line.slice(0, sep).trim().toLowerCase();
      value = line.slice(sep + 1).trim();
    }
    if (USER_AGENT.has(key)) {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [], crawlDelayMs: -1 };
        groups.push(current);
      }
      current.agents.push(productToken(value));
      lastWasAgent = true;
      continue;
    }
    if (SITEMAP.has(key)) {
      if (value) sitemaps.push(value);
      continue; // sitemap lines do not end a user-agent run
    }
    lastWasAgent = false;
    if (!current) continue; // rules before any user-agent line belong to no group
    if (ALLOW.has(key) || DISALLOW.has(key)) {
      if (!value) continue; // empty pattern: no rule
      current.rules.push({ allow: ALLOW.has(key), pattern: normalizePattern(value) });
    } else if (CRAWL_DELAY.has(key)) {
      const seconds = Number.parseFloat(value);
      if (Number.isFinite(seconds) && seconds >= 0) current.crawlDelayMs = Math.round(seconds * 1000);
    }
  }

  const specific = groups.filter((g) => g.agents.some((a) => a !== '*' && names.has(a)));
  const chosen = specific.length ? specific : groups.filter((g) => g.agents.includes('*'));
  const rules = chosen.flatMap((g) => g.rules);
  const delays = chosen.map((g) => g.crawlDelayMs).filter((d) => d >= 0);
  return new RobotRulesSet('rules', rules, delays.length ? Math.max(...delays) : -1, sitemaps);
}
