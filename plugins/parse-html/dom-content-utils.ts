/**
 * What Nutch's DOMContentUtils and HTMLMetaProcessor collect from a page — the text (script/style/
 * noscript skipped, whitespace collapsed, a line break around `parser.html.line.separators` elements),
 * the first <title>, the raw link targets with anchor text, the <base href>, the meta tags — gathered by
 * one ContentCollector fed open/text/close events. Two drivers feed it: an iterative walk over the
 * domhandler DOM (when HtmlParseFilters need the DOM) and htmlparser2's streaming callbacks (when none
 * do, which skips building the DOM). Neither recurses: a 50,000-deep page is handled like a flat one.
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
/** Whitespace that collapsing would change: a run of two, or any whitespace but a plain space. */
const NEEDS_COLLAPSE = /\s\s|[^\S ]/;
const NEWLINE = '\n';

/** Whitespace-collapsed, trimmed text of a text node. */
function collapse(data: string): string {
  const t = data.trim();
  return t && NEEDS_COLLAPSE.test(t) ? t.replace(WS, ' ') : t;
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

/** Receives a page's elements in document order and collects the WalkResult. */
const LINK = 1;
const SEPARATOR = 2;
const SKIP = 4;
const ANCHOR = 8;
const META = 16;
const BASE = 32;
const TITLE = 64;
const BODY = 128;

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
  return flags;
}

const flagCache = new WeakMap<WalkOptions, Map<string, number>>();

/** Receives a page's elements in document order and collects the WalkResult. */
export class ContentCollector {
  private readonly parts: string[] = [];
  private readonly links: RawLink[] = [];
  private readonly metas: RawMeta[] = [];
  /** Per open flagged element: the anchor-collecting link it started (or null), and where its text starts. */
  private readonly open: (RawLink | null)[] = [];
  private readonly anchorStarts: number[] = [];
  private readonly flags: Map<string, number>;
  private baseHref: string | null = null;
  private title: string | null = null;
  private skipDepth = 0;
  private titleDepth = 0;
  private titleStart = -1;
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
    let link: RawLink | null = null;
    if (f & LINK) {
      link = linkOf(attribs, name, this.opts.maxTargetLength);
      if (link) this.links.push(link);
    }
    if (f & SEPARATOR) this.lineBreak();
    if (f & SKIP) this.skipDepth++;
    if (f & TITLE && this.title === null && !this.inBody && this.titleDepth++ === 0) this.titleStart = this.parts.length;
    this.open.push(link && f & ANCHOR ? link : null);
    this.eventMarks.push(this.events);
    this.anchorStarts.push(this.parts.length);
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
    const link = this.open.pop();
    const anchorStart = this.anchorStarts.pop()!;
    const mark = this.eventMarks.pop()!;
    if (f & SKIP) this.skipDepth--;
    if (f & TITLE && this.titleDepth > 0 && --this.titleDepth === 0 && this.title === null) this.title = joinParts(this.parts, this.titleStart, false);
    if (link) {
      // Nutch's shouldThrowAwayLink: an <a> or <form> without any child node is not a link.
      if (this.events === mark) this.links.splice(this.links.lastIndexOf(link), 1);
      else link.anchor = joinParts(this.parts, anchorStart, false);
    }
    if (f & SEPARATOR) this.lineBreak();
  }

  private lineBreak(): void {
    const parts = this.parts;
    if (parts.length && parts[parts.length - 1] !== NEWLINE) parts.push(NEWLINE);
  }

  result(): WalkResult {
    if (this.pending) this.flushText();
    return { title: this.title ?? '', text: joinParts(this.parts, 0, true), links: this.links, baseHref: this.baseHref, metas: this.metas };
  }

  /** htmlparser2 callbacks feeding this collector (the DOM-less path). */
  handler(): Partial<Handler> {
    return {
      onopentag: (name, attribs) => this.onOpen(name, attribs),
      ontext: (data) => this.onText(data),
      onclosetag: (name) => this.onClose(name),
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
      default:
        break; // comments, directives, CDATA: no text, no links
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
