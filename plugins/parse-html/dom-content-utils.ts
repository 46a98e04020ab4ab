/**
 * What Nutch's DOMContentUtils and HTMLMetaProcessor collect from a page — the text (script/style/
 * noscript skipped, whitespace collapsed, a line break around `parser.html.line.separators` elements),
 * the first <title>, the raw link targets with anchor text, the <base href>, the meta tags — gathered by
 * one ContentCollector fed open/text/close events. Two drivers feed it: an iterative walk over the
 * domhandler DOM (when HtmlParseFilters need the DOM) and htmlparser2's streaming callbacks (when none
 * do, which skips building the DOM). Neither recurses: a 50,000-deep page is handled like a flat one.
 *
 * Anchor text follows Nutch's getOutlinks: the text of an <a> (or <form>) up to the first <a> nested in
 * it (getText with abortOnNestedAnchors), or — when that is blank — the alt of the first <img alt>
 * inside it; an <img> link's anchor is its own alt. An <a> with no child node at all is no link, but
 * a comment is a child (`<a href="g"><!--x--></a>` is a link with an empty anchor).
 */
import type { AnyNode, Element } from 'domhandler';
import type { Handler } from 'htmlparser2';

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
  source: 'src',
  video: 'src',
  audio: 'src',
};

/** Elements whose text becomes the anchor (Nutch: childLen 1); the others carry no anchor. */
const ANCHOR_FROM_CHILDREN = new Set(['a', 'form']);
// An <iframe>'s content is raw text no browser shows (HTML5; htmlparser2 reads it so): not page text.
const SKIP_TEXT = new Set(['script', 'style', 'noscript', 'iframe']);

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
  /**
   * Links kept at most (parser.outlinks.ceiling); later ones are only counted, so a page of a million
   * <a href> never holds a million link objects. Default: no limit.
   */
  maxLinks?: number;
  /** Heading elements whose text is collected (parser.html.headings), for ranking in the index. */
  headingTags?: ReadonlySet<string>;
}

export interface WalkResult {
  title: string;
  text: string;
  links: RawLink[];
  /** Links found after `maxLinks` were kept: counted, not collected. */
  linksOverCeiling: number;
  baseHref: string | null;
  metas: RawMeta[];
  /** Text of each heading element, in document order (at most MAX_HEADINGS, each cut at MAX_HEADING_CHARS). */
  headings: string[];
}

const MAX_HEADINGS = 200;
const MAX_HEADING_CHARS = 300;

const WS = /\s+/g;
/** Whitespace that collapsing would change: a run of two, or any whitespace but a plain space. */
const NEEDS_COLLAPSE = /\s\s|[^\S ]/;
const NEWLINE = '\n';

/** Whitespace-collapsed, trimmed text of a text node. */
function collapse(data: string): string {
  const t = data.trim();
  return t && NEEDS_COLLAPSE.test(t) ? t.replace(WS, ' ') : t;
}

function joinParts(parts: readonly string[], from: number, lineBreaks: boolean, to = -1): string {
  let out = '';
  let pendingBreak = false;
  const end = to < 0 ? parts.length : to;
  for (let i = from; i < end; i++) {
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

/** Receives a page's elements in document order and collects the WalkResult. */
const LINK = 1;
const SEPARATOR = 2;
const SKIP = 4;
const ANCHOR = 8;
const META = 16;
const BASE = 32;
const TITLE = 64;
const BODY = 128;
/** <a>: cuts the anchor text of the anchors it is nested in. */
const A = 256;
/** <img>: its alt is the anchor of enclosing anchors whose text is blank. */
const IMG = 512;
/** <h1>…<h6> named by parser.html.headings. */
const HEADING = 1024;

/** One lookup per element: what a tag name means to the collector, as bit flags. */
function tagFlags(opts: WalkOptions): Map<string, number> {
  const flags = new Map<string, number>();
  const add = (name: string, f: number) => flags.set(name, (flags.get(name) ?? 0) | f);
  for (const t of opts.linkTags) add(t, LINK);
  for (const t of opts.lineSeparators) add(t, SEPARATOR);
  for (const t of SKIP_TEXT) add(t, SKIP);
  for (const t of ANCHOR_FROM_CHILDREN) add(t, ANCHOR);
  add('meta', META);
  add('base', BASE);
  add('title', TITLE);
  add('body', BODY);
  add('a', A);
  add('img', IMG);
  for (const t of opts.headingTags ?? []) add(t, HEADING);
  return flags;
}

const flagCache = new WeakMap<WalkOptions, Map<string, number>>();

/** An open <a> or <form> link collecting its anchor text. */
interface OpenAnchor {
  link: RawLink;
  /** parts index where its text starts, and where a nested <a> cut it (-1: not cut). */
  start: number;
  cut: number;
  /** alt of the first <img alt> inside it. */
  alt: string | null;
  /** False when the link came after the ceiling: its anchor rules still apply, but it is only counted. */
  kept: boolean;
}

/** Receives a page's elements in document order and collects the WalkResult. */
export class ContentCollector {
  private readonly parts: string[] = [];
  private readonly links: RawLink[] = [];
  private readonly maxLinks: number;
  private linksOverCeiling = 0;
  private readonly metas: RawMeta[] = [];
  /** Per open flagged element: the anchor it started collecting, or null. */
  private readonly open: (OpenAnchor | null)[] = [];
  /** The open anchors, outermost first; those from `uncutFrom` have no cut yet, from `altFrom` no alt. */
  private readonly anchors: OpenAnchor[] = [];
  private uncutFrom = 0;
  private altFrom = 0;
  private readonly flags: Map<string, number>;
  private baseHref: string | null = null;
  private title: string | null = null;
  private skipDepth = 0;
  private titleDepth = 0;
  private titleStart = -1;
  private readonly headings: string[] = [];
  private headingDepth = 0;
  private headingStart = -1;
  private pending = '';
  /** Child nodes seen so far (elements and text chunks), to tell an empty <a></a> from one with content. */
  private events = 0;
  private readonly eventMarks: number[] = [];
  /** Title and base are taken from the head only, as Nutch's getTitle/getBase stop at <body>. */
  private inBody = false;

  constructor(private readonly opts: WalkOptions) {
    let flags = flagCache.get(opts);
    if (!flags) flagCache.set(opts, (flags = tagFlags(opts)));
    this.flags = flags;
    this.maxLinks = opts.maxLinks ?? Number.MAX_SAFE_INTEGER;
  }

  onOpen(name: string, attribs: Record<string, string>): void {
    if (this.pending) this.flushText();
    this.events++;
    const f = this.flags.get(name);
    // Unflagged elements leave no trace: opens and closes of one name always pair up.
    if (f === undefined) return;
    if (f & META) {
      const content = attribs.content;
      // As HTMLMetaProcessor: meta tags under <body> do not count.
      if (content !== undefined && !this.inBody) this.metas.push({ name: attribs.name?.toLowerCase() ?? null, httpEquiv: attribs['http-equiv']?.toLowerCase() ?? null, content });
    } else if (f & BASE) {
      if (this.baseHref === null && attribs.href && !this.inBody) this.baseHref = attribs.href.trim();
    } else if (f & BODY) {
      this.inBody = true;
    }
    if (f & A) this.cutAnchors();
    if (f & IMG && attribs.alt !== undefined) this.giveAlt(attribs.alt);
    let anchor: OpenAnchor | null = null;
    if (f & LINK) {
      const link = linkOf(attribs, name, this.opts.maxTargetLength);
      if (link) {
        const kept = this.links.length < this.maxLinks;
        if (kept) this.links.push(link);
        // An <a>/<form> over the ceiling is counted at its close: one without child nodes is no link.
        if (f & ANCHOR) this.anchors.push((anchor = { link, start: this.parts.length, cut: -1, alt: null, kept }));
        else if (!kept) this.linksOverCeiling++;
        else if (f & IMG && attribs.alt) link.anchor = attribs.alt.trim();
      }
    }
    if (f & SEPARATOR) this.lineBreak();
    if (f & SKIP) this.skipDepth++;
    if (f & TITLE && this.title === null && !this.inBody && this.titleDepth++ === 0) this.titleStart = this.parts.length;
    if (f & HEADING && this.headingDepth++ === 0) this.headingStart = this.parts.length;
    this.open.push(anchor);
    this.eventMarks.push(this.events);
  }

  /** A nested <a> ends the anchor text of every <a> it is inside (Nutch's abortOnNestedAnchors). */
  private cutAnchors(): void {
    const anchors = this.anchors;
    for (let i = this.uncutFrom; i < anchors.length; i++) if (anchors[i]!.link.tag === 'a') anchors[i]!.cut = this.parts.length;
    this.uncutFrom = anchors.length;
  }

  private giveAlt(alt: string): void {
    const anchors = this.anchors;
    for (let i = this.altFrom; i < anchors.length; i++) anchors[i]!.alt = alt;
    this.altFrom = anchors.length;
  }

  /** A comment (or processing instruction) is a child node too, for the empty-link rule. */
  onComment(): void {
    if (this.pending) this.flushText(); // the text on either side is two text nodes, as in the DOM
    this.events++;
  }

  /**
   * Text arrives in chunks (the tokenizer splits at entities); the chunks of one text node are joined
   * before collapsing, as the DOM holds them in one node.
   */
  onText(data: string): void {
    this.events++;
    if (this.skipDepth > 0) return;
    this.pending = this.pending ? this.pending + data : data;
  }

  private flushText(): void {
    const t = collapse(this.pending);
    this.pending = '';
    if (t) this.parts.push(t);
  }

  onClose(name: string): void {
    if (this.pending) this.flushText();
    const f = this.flags.get(name);
    if (f === undefined) return;
    const anchor = this.open.pop();
    const mark = this.eventMarks.pop()!;
    if (f & SKIP) this.skipDepth--;
    if (f & TITLE && this.titleDepth > 0 && --this.titleDepth === 0 && this.title === null) this.title = joinParts(this.parts, this.titleStart, false);
    if (f & HEADING && this.headingDepth > 0 && --this.headingDepth === 0 && this.headings.length < MAX_HEADINGS) {
      const h = joinParts(this.parts, this.headingStart, false);
      if (h) this.headings.push(h.length > MAX_HEADING_CHARS ? h.slice(0, MAX_HEADING_CHARS) : h);
    }
    if (anchor) {
      const anchors = this.anchors;
      anchors.pop();
      if (this.uncutFrom > anchors.length) this.uncutFrom = anchors.length;
      if (this.altFrom > anchors.length) this.altFrom = anchors.length;
      const link = anchor.link;
      // Nutch's shouldThrowAwayLink: an <a> or <form> without any child node is not a link.
      if (this.events === mark) {
        if (anchor.kept) this.links.splice(this.links.lastIndexOf(link), 1);
      } else if (!anchor.kept) this.linksOverCeiling++;
      else {
        const text = joinParts(this.parts, anchor.start, false, anchor.cut);
        link.anchor = text || (anchor.alt ?? '').trim();
      }
    }
    if (f & SEPARATOR) this.lineBreak();
  }

  private lineBreak(): void {
    const parts = this.parts;
    if (parts.length && parts[parts.length - 1] !== NEWLINE) parts.push(NEWLINE);
  }

  result(): WalkResult {
    if (this.pending) this.flushText();
    return { title: this.title ?? '', text: joinParts(this.parts, 0, true), links: this.links, linksOverCeiling: this.linksOverCeiling, baseHref: this.baseHref, metas: this.metas, headings: this.headings };
  }

  /** htmlparser2 callbacks feeding this collector (the DOM-less path). */
  handler(): Partial<Handler> {
    return {
      onopentag: (name, attribs) => this.onOpen(name, attribs),
      ontext: (data) => this.onText(data),
      onclosetag: (name) => this.onClose(name),
      oncomment: () => this.onComment(),
      onprocessinginstruction: () => this.onComment(),
    };
  }
}

const ENTER = 0;
const LEAVE = 1;

/** Feeds a domhandler DOM to a ContentCollector with an explicit stack. */
export function walkDocument(root: AnyNode, opts: WalkOptions): WalkResult {
  const collector = new ContentCollector(opts);
  const nodes: AnyNode[] = [root];
  const moves: number[] = [ENTER];
  while (nodes.length) {
    const node = nodes.pop()!;
    if (moves.pop() === LEAVE) {
      collector.onClose((node as Element).name);
      continue;
    }
    switch (node.type) {
      case 'text':
        collector.onText(node.data);
        break;
      case 'tag':
      case 'script':
      case 'style':
      case 'root': {
        const children = (node as Element).children;
        if (node.type !== 'root') {
          collector.onOpen((node as Element).name, (node as Element).attribs);
          nodes.push(node);
          moves.push(LEAVE);
        }
        for (let i = children.length - 1; i >= 0; i--) {
          nodes.push(children[i]!);
          moves.push(ENTER);
        }
        break;
      }
      case 'comment':
      case 'directive':
        collector.onComment();
        break;
      default:
        break; // CDATA: no text, no links
    }
  }
  return collector.result();
}

/** The link an element carries, or null (no target, rel=nofollow, a form posted, an oversized target). */
function linkOf(attribs: Record<string, string>, name: string, maxTargetLength: number): RawLink | null {
  const target = attribs[LINK_ATTRIBUTES[name]!];
  if (target === undefined) return null;
  if (target.length > maxTargetLength) return null;
  const rel = attribs.rel;
  if (rel && /(?:^|\s)nofollow(?:\s|$)/i.test(rel)) return null;
  if (name === 'form' && attribs.method && attribs.method.trim().toLowerCase() === 'post') return null;
  return { tag: name, target, anchor: '' };
}
