/**
 * robots.txt parsing as RFC 9309: groups of user-agent lines followed by rules; the groups that name
 * one of our agent names (case-insensitive, see agentMatches) are merged, else the `*` groups;
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

const PRODUCT_TOKEN = /^[a-z_-]+$/;
const PRODUCT_TOKEN_PREFIX = /^[a-z_-]+/;

/**
 * Whether one `User-agent:` value names one of our agents (`names` lower-cased), as crawler-commons'
 * exact matching: the whole value, case-insensitive (`crawler2` matches `crawler2`); a value that is not
 * itself a product token (`FooBot/1.2`, `Foo Bot`) also matches by its leading `[a-zA-Z_-]` run.
 */
export function agentMatches(value: string, names: ReadonlySet<string>): boolean {
  const v = value.trim().toLowerCase();
  if (!v || v === '*') return false;
  if (names.has(v)) return true;
  if (PRODUCT_TOKEN.test(v)) return false;
  const m = PRODUCT_TOKEN_PREFIX.exec(v);
  return m !== null && names.has(m[0]);
}

/** robots.txt text: UTF-16 when it starts with a UTF-16 byte order mark, else UTF-8; the BOM dropped. */
export function decodeRobotsTxt(content: Uint8Array | string): string {
  let text: string;
  if (typeof content === 'string') text = content.slice(0, ROBOTS_MAX_BYTES);
  else {
    const head = content.subarray(0, ROBOTS_MAX_BYTES);
    const encoding = head[0] === 0xff && head[1] === 0xfe ? 'utf-16le' : head[0] === 0xfe && head[1] === 0xff ? 'utf-16be' : 'utf-8';
    text = new TextDecoder(encoding, { fatal: false }).decode(head);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Parses robots.txt bytes for the given agent names (http.agent.name + http.robots.agents).
 * A run of `User-agent` lines opens a group (one line may name several agents, comma-separated); the
 * run ends at the first Allow or Disallow line. Crawl-delay, Sitemap and unknown lines do not end it
 * (RFC 9309 §2.2.1; crawler-commons merges a Crawl-delay-only group into the next).
 */
export function parseRobotsTxt(content: Uint8Array | string, agentNames: readonly string[]): RobotRulesSet {
  const text = decodeRobotsTxt(content);
  const names = new Set(agentNames.map((a) => a.trim().toLowerCase()).filter(Boolean));
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | null = null;
  let collectingAgents = false;

  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const hash = rawLine.indexOf('#');
    const line = (hash >= 0 ? rawLine.slice(0, hash) : rawLine).trim();
    if (!line) continue;
    const sep = line.indexOf(':');
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
      if (!current || !collectingAgents) {
        current = { agents: [], rules: [], crawlDelayMs: -1 };
        groups.push(current);
      }
      for (const agent of value.split(',')) if (agent.trim()) current.agents.push(agent.trim());
      collectingAgents = true;
    } else if (SITEMAP.has(key)) {
      if (value) sitemaps.push(value);
    } else if (ALLOW.has(key) || DISALLOW.has(key)) {
      collectingAgents = false;
      // rules before any user-agent line belong to no group; an empty pattern is no rule
      if (current && value) current.rules.push({ allow: ALLOW.has(key), pattern: normalizePattern(value) });
    } else if (CRAWL_DELAY.has(key) && current) {
      const seconds = Number.parseFloat(value);
      if (Number.isFinite(seconds) && seconds >= 0) current.crawlDelayMs = Math.round(seconds * 1000);
    }
  }

  const specific = groups.filter((g) => g.agents.some((a) => agentMatches(a, names)));
  const chosen = specific.length ? specific : groups.filter((g) => g.agents.some((a) => a.startsWith('*')));
  const rules = chosen.flatMap((g) => g.rules);
  const delays = chosen.map((g) => g.crawlDelayMs).filter((d) => d >= 0);
  return new RobotRulesSet('rules', rules, delays.length ? Math.max(...delays) : -1, sitemaps);
}
