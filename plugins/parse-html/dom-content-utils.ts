/**
 * One iterative walk over the domhandler DOM collecting what Nutch's DOMContentUtils and
 * HTMLMetaProcessor collect: the text (script/style/noscript skipped, whitespace collapsed, a line break
 * around `parser.html.line.separators` elements), the first <title>, the raw link targets with anchor
 * text, the <base href>, and the meta tags. An explicit stack, never recursion: a 50,000-deep page walks
 * like a flat one.
 */
import type { AnyNode, Element } from 'domhandler';

/** Link-bearing elements and the attribute holding the target, as Nutch's DOMContentUtils.linkParams. */
export const LINK_ATTRIBUTES: Readonly<Record<string, string>> = {
  a: 'href',
  area: 'href',
  form: 'action',
  frame: 'src',
  iframe: 'src',
  script: 'src',
  link: 'href',
  img: 'src',
  embed: 'src',
  object: 'data',
};

/** Elements whose text becomes the anchor (Nutch: childLen 1); the others carry no anchor. */
const ANCHOR_FROM_CHILDREN = new Set(['a', 'form']);
const SKIP_TEXT = new Set(['script', 'style', 'noscript']);

export interface RawLink {
  tag: string;
  target: string;
  anchor: string;
}

export interface RawMeta {
  name: string | null;
  httpEquiv: string | null;
  content: string;
}

export interface WalkOptions {
  /** Tags that produce outlinks (LINK_ATTRIBUTES minus ignore_tags, form per use_action). */
  linkTags: ReadonlySet<string>;
  lineSeparators: ReadonlySet<string>;
  /** Targets longer than this are dropped unread (db.max.outlink.length). */
  maxTargetLength: number;
}

export interface WalkResult {
  title: string;
  text: string;
  links: RawLink[];
  baseHref: string | null;
  metas: RawMeta[];
}

const WS = /\s+/g;
const NEWLINE = '\n';

/** Whitespace-collapsed, trimmed text of a text node. */
function collapse(data: string): string {
  return data.replace(WS, ' ').trim();
}

function joinParts(parts: readonly string[], from: number, lineBreaks: boolean): string {
  let out = '';
  let pendingBreak = false;
  for (let i = from; i < parts.length; i++) {
    const p = parts[i]!;
    if (p === NEWLINE) {
      pendingBreak = lineBreaks;
      continue;
    }
    if (out.length) out += pendingBreak ? NEWLINE : ' ';
    out += p;
    pendingBreak = false;
  }
  return out;
}

interface Frame {
  /** parts.length when an anchor-collecting link element was entered. */
  anchorStart: number;
  link: RawLink | null;
  titleStart: number;
}

export function walkDocument(root: AnyNode, opts: WalkOptions): WalkResult {
  const parts: string[] = [];
  const links: RawLink[] = [];
  const metas: RawMeta[] = [];
  let baseHref: string | null = null;
  let title: string | null = null;
  let skipDepth = 0;
  let titleDepth = 0;
  let titleStart = -1;

  // nodes[i] is entered when exits[i] is null, left (its frame closed) otherwise.
  const nodes: AnyNode[] = [root];
  const exits: (Frame | null)[] = [null];
  while (nodes.length) {
    const node = nodes.pop()!;
    const frame = exits.pop()!;
    if (frame) {
      const el = node as Element;
      const name = el.name;
      if (SKIP_TEXT.has(name)) skipDepth--;
      if (name === 'title' && titleDepth > 0 && --titleDepth === 0 && title === null) title = joinParts(parts, titleStart, false);
      if (frame.link) frame.link.anchor = joinParts(parts, frame.anchorStart, false);
      if (opts.lineSeparators.has(name) && parts.length && parts[parts.length - 1] !== NEWLINE) parts.push(NEWLINE);
      continue;
    }
    switch (node.type) {
      case 'text': {
        if (skipDepth > 0) break;
        const t = collapse(node.data);
        if (t) parts.push(t);
        break;
      }
      case 'tag':
      case 'script':
      case 'style': {
        const el = node as Element;
        const name = el.name;
        const attribs = el.attribs;
        if (name === 'meta') {
          const content = attribs.content;
          if (content !== undefined) metas.push({ name: attribs.name?.toLowerCase() ?? null, httpEquiv: attribs['http-equiv']?.toLowerCase() ?? null, content });
        } else if (name === 'base') {
          if (baseHref === null && attribs.href) baseHref = attribs.href.trim();
        }
        let link: RawLink | null = null;
        if (opts.linkTags.has(name)) link = linkOf(el, name, opts.maxTargetLength);
        if (link) links.push(link);
        if (opts.lineSeparators.has(name) && parts.length && parts[parts.length - 1] !== NEWLINE) parts.push(NEWLINE);
        if (SKIP_TEXT.has(name)) skipDepth++;
        if (name === 'title' && title === null && titleDepth++ === 0) titleStart = parts.length;
        const children = el.children;
        nodes.push(el);
        exits.push({ anchorStart: parts.length, link: link && ANCHOR_FROM_CHILDREN.has(name) ? link : null, titleStart });
        for (let i = children.length - 1; i >= 0; i--) {
          nodes.push(children[i]!);
          exits.push(null);
        }
        break;
      }
      case 'root': {
        const children = (node as unknown as { children: AnyNode[] }).children;
        for (let i = children.length - 1; i >= 0; i--) {
          nodes.push(children[i]!);
          exits.push(null);
        }
        break;
      }
      default:
        break; // comments, directives, CDATA: no text, no links
    }
  }
  return { title: title ?? '', text: joinParts(parts, 0, true), links, baseHref, metas };
}

/** The link an element carries, or null (no target, rel=nofollow, a form posted, an oversized target). */
function linkOf(el: Element, name: string, maxTargetLength: number): RawLink | null {
  const attribs = el.attribs;
  const target = attribs[LINK_ATTRIBUTES[name]!];
  if (target === undefined) return null;
  if (target.length > maxTargetLength) return null;
  const rel = attribs.rel;
  if (rel && /(?:^|\s)nofollow(?:\s|$)/i.test(rel)) return null;
  if (name === 'form' && attribs.method && attribs.method.trim().toLowerCase() === 'post') return null;
  return { tag: name, target, anchor: '' };
}
