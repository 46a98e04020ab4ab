/**
 * feed, as Nutch's feed plugin: FeedParser turns an RSS or Atom document into one parse per entry,
 * keyed by the entry's link (text from its description, else its content, markup stripped; its title;
 * the links in its content as outlinks; parse metadata `feed` (the feed's link), `author`, `tag`,
 * `published` and `updated` (epoch milliseconds, as Nutch)), plus the feed's own parse (its title and
 * description). With `feed.entry.parses` false the feed's parse lists the entry links as outlinks
 * instead, so the articles are fetched. FeedIndexingFilter puts those fields into the document.
 * A document that is not a feed is a FAILED (invalid format) parse, so parse-plugins.json can try
 * `feed` before parse-tika for text/xml.
 */
import { Parser as HtmlTokenizer } from 'htmlparser2';
import {
  ParseStatusMinor, createParseData, decodeXmlText, failedParse, singleParseResult,
  type Content, type IndexingContext, type IndexingFilter, type NutchDocument, type Outlink, type Parse, type ParseResult, type Parser, type PluginContext,
} from '../../sdk/plugin.js';
import { readFeed, type FeedContent, type FeedEntry } from './feed-reader.js';

/** Parse metadata keys, as Nutch's org.apache.nutch.metadata.Feed. */
export const FeedMeta = {
  FEED: 'feed',
  AUTHOR: 'author',
  TAGS: 'tag',
  PUBLISHED: 'published',
  UPDATED: 'updated',
} as const;

export class FeedParser implements Parser {
  private readonly entryParses: boolean;

  constructor(ctx: PluginContext) {
    this.entryParses = ctx.conf.getBoolean('feed.entry.parses', true);
  }

  getParse(content: Content): ParseResult {
    const xml = decodeXmlText(content.content, content.contentType);
    let feed;
    try {
      feed = readFeed(xml);
    } catch (err) {
      return singleParseResult(content.url, failedParse(`feed: ${content.url.slice(0, 300)} cannot be read: ${(err as Error).message}`, ParseStatusMinor.FAILED_INVALID_FORMAT));
    }
    if (!feed) return singleParseResult(content.url, failedParse(`feed: ${content.url.slice(0, 300)} is not an RSS or Atom feed`, ParseStatusMinor.FAILED_INVALID_FORMAT));
    const base = content.baseUrl || content.url;
    const feedLink = absolute(feed.link, base);
    const result: ParseResult = { url: content.url, parses: {} };
    const entryLinks: Outlink[] = [];
    for (const entry of feed.entries) {
      const link = absolute(entry.link, base);
      if (!link || link === content.url) continue;
      const title = stripTags(entry.title);
      entryLinks.push({ toUrl: link, anchor: title });
      if (this.entryParses && !result.parses[link]) result.parses[link] = entryParse(entry, link, title, feedLink, content);
    }
    const feedMeta: Record<string, string[]> = {};
    if (feed.authors.length) feedMeta[FeedMeta.AUTHOR] = feed.authors;
    if (feed.published !== null) feedMeta[FeedMeta.PUBLISHED] = [String(feed.published)];
    if (feed.updated !== null) feedMeta[FeedMeta.UPDATED] = [String(feed.updated)];
    result.parses[content.url] = {
      text: stripTags(feed.description),
      data: createParseData({
        title: stripTags(feed.title),
        outlinks: this.entryParses ? [] : entryLinks,
        contentMeta: content.metadata,
        parseMeta: feedMeta,
      }),
      isCanonical: true,
    };
    return result;
  }
}

function entryParse(entry: FeedEntry, link: string, title: string, feedLink: string | null, content: Content): Parse {
  const source: FeedContent | null = entry.description ?? (entry.contents.length ? { value: entry.contents.map((c) => c.value).join(''), type: entry.contents[0]!.type } : null);
  const body = source ? (source.type === 'text' ? { text: source.value.trim(), links: [] } : htmlText(source.value, link)) : { text: '', links: [] };
  const parseMeta: Record<string, string[]> = {};
  if (feedLink) parseMeta[FeedMeta.FEED] = [feedLink];
  if (entry.authors.length) parseMeta[FeedMeta.AUTHOR] = entry.authors;
  if (entry.categories.length) parseMeta[FeedMeta.TAGS] = entry.categories;
  if (entry.published !== null) parseMeta[FeedMeta.PUBLISHED] = [String(entry.published)];
  if (entry.updated !== null) parseMeta[FeedMeta.UPDATED] = [String(entry.updated)];
  // The entry's content type is its description's, as Nutch's addFields sets it.
  const contentMeta = { ...content.metadata, 'Content-Type': [source?.type === 'text' ? 'text/plain' : 'text/html; charset=utf-8'] };
  return { text: body.text, data: createParseData({ title, outlinks: body.links, contentMeta, parseMeta }), isCanonical: false };
}

/** Text and anchored links of an HTML fragment (an entry's description or content). */
function htmlText(html: string, base: string): { text: string; links: Outlink[] } {
  const parts: string[] = [];
  const links: Outlink[] = [];
  const open: { href: string; text: string }[] = [];
  let skip = 0;
  new HtmlTokenizer({
    onopentag(name, attrs) {
      if (name === 'script' || name === 'style') skip++;
      if (name === 'a' && attrs.href) open.push({ href: attrs.href, text: '' });
      if (/^(p|div|br|li|h[1-6]|tr|blockquote)$/.test(name)) parts.push('\n');
    },
    onclosetag(name) {
      if (name === 'script' || name === 'style') skip = Math.max(0, skip - 1);
      if (name === 'a' && open.length) {
        const l = open.pop()!;
        const url = absolute(l.href, base);
        if (url && /^(https?|ftp):/i.test(url)) links.push({ toUrl: url, anchor: l.text.replace(/\s+/g, ' ').trim() });
      }
    },
    ontext(t) {
      if (skip) return;
      parts.push(t);
      for (const l of open) l.text += t;
    },
  }, { decodeEntities: true, lowerCaseTags: true }).end(html);
  const text = parts.join('').replace(/[ \t\r\f\u00a0]+/g, ' ').replace(/ ?\n ?/g, '\n').replace(/\n{2,}/g, '\n').trim();
  return { text, links };
}

/** Markup removed, as Nutch's stripTags (titles may carry escaped HTML). */
function stripTags(s: string): string {
  return s.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
}

function absolute(link: string | null, base: string): string | null {
  if (!link) return null;
  try {
    return new URL(link.trim(), base).href;
  } catch {
    return null;
  }
}

/** Nutch's FeedIndexingFilter: author, tag and feed fields, publishedDate and updatedDate as dates. */
export class FeedIndexingFilter implements IndexingFilter {
  filter(doc: NutchDocument, ctx: IndexingContext): NutchDocument {
    const meta = ctx.parse.data.parseMeta;
    const add = (name: string, values: (string | Date)[]) => {
      if (values.length) (doc.fields[name] ??= []).push(...values);
    };
    add(FeedMeta.AUTHOR, meta[FeedMeta.AUTHOR] ?? []);
    add(FeedMeta.TAGS, meta[FeedMeta.TAGS] ?? []);
    add(FeedMeta.FEED, (meta[FeedMeta.FEED] ?? []).slice(0, 1));
    for (const [key, field] of [[FeedMeta.PUBLISHED, 'publishedDate'], [FeedMeta.UPDATED, 'updatedDate']] as const) {
      const ms = Number(meta[key]?.[0]);
      if (meta[key]?.[0] !== undefined && Number.isFinite(ms)) add(field, [new Date(ms)]);
    }
    return doc;
  }
}
