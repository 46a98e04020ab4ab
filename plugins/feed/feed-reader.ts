/**
 * RSS 0.9x/2.0, RSS 1.0 (RDF) and Atom 1.0 into one shape, as ROME's SyndFeed does for Nutch's
 * FeedParser. Read leniently with htmlparser2 in XML mode (real feeds are often not well-formed), then
 * walked without recursion. Dates (RFC 822 pubDate, ISO 8601 dc:date / published / updated) become
 * epoch milliseconds; an unparsable date is dropped.
 */
import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';

export interface FeedContent {
  value: string;
  /** 'html' (markup to strip), 'xhtml' (already markup), 'text'. */
  type: 'html' | 'xhtml' | 'text';
}

export interface FeedEntry {
  title: string;
  link: string | null;
  id: string | null;
  description: FeedContent | null;
  contents: FeedContent[];
  authors: string[];
  categories: string[];
  published: number | null;
  updated: number | null;
}

export interface Feed {
  kind: 'rss' | 'rdf' | 'atom';
  title: string;
  link: string | null;
  description: string;
  authors: string[];
  published: number | null;
  updated: number | null;
  entries: FeedEntry[];
}

/** The feed in `xml`, or null when its root is not rss, rdf:RDF (RSS 1.0) or an Atom feed. */
export function readFeed(xml: string): Feed | null {
  const doc = parseDocument(xml, { xmlMode: true, decodeEntities: true, recognizeCDATA: true });
  const root = doc.children.find((n): n is Element => n.type === 'tag');
  if (!root) return null;
  const name = root.name.toLowerCase();
  if (name === 'rss') return readRss(root);
  if (name === 'rdf:rdf') return readRdf(root);
  if (name === 'feed' || name.endsWith(':feed')) return readAtom(root);
  return null;
}

function elements(parent: Element | undefined, name?: string): Element[] {
  if (!parent) return [];
  return parent.children.filter((n): n is Element => n.type === 'tag' && (name === undefined || n.name.toLowerCase() === name));
}

function first(parent: Element | undefined, ...names: string[]): Element | undefined {
  for (const name of names) {
    const found = elements(parent, name)[0];
    if (found) return found;
  }
  return undefined;
}

/** Concatenated text of a subtree, iteratively (a feed may nest deeply). */
function text(node: Element | undefined): string {
  if (!node) return '';
  const out: string[] = [];
  const stack: ChildNode[] = [...node.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text' || n.type === 'cdata') {
      if (n.type === 'text') out.push(n.data);
      else for (const c of [...n.children].reverse()) stack.push(c);
    } else if ('children' in n) {
      for (const c of [...(n as Element).children].reverse()) stack.push(c);
    }
  }
  return out.join('');
}

/** The markup of an element's children, for Atom type="xhtml" content. */
function innerMarkup(node: Element): string {
  const out: string[] = [];
  const stack: (ChildNode | string)[] = [...node.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (typeof n === 'string') out.push(n);
    else if (n.type === 'text') out.push(escapeText(n.data));
    else if (n.type === 'tag') {
      const el = n as Element;
      const attrs = Object.entries(el.attribs).map(([k, v]) => ` ${k}="${escapeText(v).replace(/"/g, '&quot;')}"`).join('');
      out.push(`<${el.name}${attrs}>`);
      stack.push(`</${el.name}>`);
      for (const c of [...el.children].reverse()) stack.push(c);
    } else if (n.type === 'cdata') {
      for (const c of [...(n as unknown as Element).children].reverse()) stack.push(c);
    }
  }
  return out.join('');
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function date(node: Element | undefined): number | null {
  const v = text(node).trim();
  if (!v) return null;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : null;
}

function nonEmpty(values: string[]): string[] {
  return [...new Set(values.map((v) => v.replace(/\s+/g, ' ').trim()).filter(Boolean))];
}

function readRss(root: Element): Feed {
  const channel = first(root, 'channel');
  const items = [...elements(channel, 'item'), ...elements(root, 'item')];
  return {
    kind: 'rss',
    title: text(first(channel, 'title')),
    link: text(first(channel, 'link')).trim() || null,
    description: text(first(channel, 'description')),
    authors: nonEmpty([text(first(channel, 'managingeditor')), text(first(channel, 'dc:creator'))]),
    published: date(first(channel, 'pubdate', 'dc:date')),
    updated: date(first(channel, 'lastbuilddate')),
    entries: items.map(rssItem),
  };
}

function rssItem(item: Element): FeedEntry {
  const guid = first(item, 'guid');
  const guidText = text(guid).trim();
  const permalink = guid && guid.attribs.isPermaLink !== 'false' && /^https?:/i.test(guidText) ? guidText : null;
  const encoded = first(item, 'content:encoded');
  const description = first(item, 'description');
  return {
    title: text(first(item, 'title')),
    link: text(first(item, 'link')).trim() || item.attribs['rdf:about'] || permalink,
    id: guidText || null,
    description: description ? { value: text(description), type: 'html' } : null,
    contents: encoded ? [{ value: text(encoded), type: 'html' }] : [],
    authors: nonEmpty([...elements(item, 'author'), ...elements(item, 'dc:creator')].map(text)),
    categories: nonEmpty([...elements(item, 'category'), ...elements(item, 'dc:subject')].map(text)),
    published: date(first(item, 'pubdate', 'dc:date')),
    updated: null,
  };
}

function readRdf(root: Element): Feed {
  const channel = first(root, 'channel');
  return {
    kind: 'rdf',
    title: text(first(channel, 'title')),
    link: text(first(channel, 'link')).trim() || null,
    description: text(first(channel, 'description')),
    authors: nonEmpty([text(first(channel, 'dc:creator'))]),
    published: date(first(channel, 'dc:date')),
    updated: null,
    entries: elements(root, 'item').map(rssItem),
  };
}

function atomText(node: Element | undefined): FeedContent | null {
  if (!node) return null;
  const type = (node.attribs.type ?? 'text').toLowerCase();
  if (type === 'xhtml') return { value: innerMarkup(node), type: 'xhtml' };
  if (type === 'html' || type === 'text/html') return { value: text(node), type: 'html' };
  return { value: text(node), type: 'text' };
}

function atomLink(parent: Element): string | null {
  const links = elements(parent, 'link');
  const alternate = links.find((l) => (l.attribs.rel ?? 'alternate') === 'alternate') ?? links[0];
  return alternate?.attribs.href?.trim() || null;
}

function readAtom(root: Element): Feed {
  const authors = (parent: Element) => nonEmpty(elements(parent, 'author').map((a) => text(first(a, 'name')) || text(a)));
  return {
    kind: 'atom',
    title: text(first(root, 'title')),
    link: atomLink(root),
    description: text(first(root, 'subtitle')),
    authors: authors(root),
    published: null,
    updated: date(first(root, 'updated')),
    entries: elements(root, 'entry').map((entry): FeedEntry => {
      const summary = atomText(first(entry, 'summary'));
      const content = atomText(first(entry, 'content'));
      const own = authors(entry);
      return {
        title: atomText(first(entry, 'title'))?.value ?? '',
        link: atomLink(entry),
        id: text(first(entry, 'id')).trim() || null,
        description: summary,
        contents: content ? [content] : [],
        // An entry without its own author has the feed's (RFC 4287 §4.2.1).
        authors: own.length ? own : authors(root),
        categories: nonEmpty(elements(entry, 'category').map((c) => c.attribs.term ?? c.attribs.label ?? '')),
        published: date(first(entry, 'published', 'issued')),
        updated: date(first(entry, 'updated', 'modified')),
      };
    }),
  };
}
