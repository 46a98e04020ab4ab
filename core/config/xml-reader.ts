/**
 * A small XML reader for Nutch's configuration files (nutch-site.xml, nutch-default.xml,
 * parse-plugins.xml, index-writers.xml): elements with attributes, text, the five entities and
 * character references, comments, CDATA, processing instructions and a DOCTYPE without an internal
 * subset. It keeps the line of every element, so errors and provenance name the file and line.
 * Namespaces are not resolved: an element keeps its prefixed name (`xi:include`).
 *
 * readXml builds the tree: text, markup that holds no elements, end tags and start tags are each a
 * step below; the position, line counting, names, entities and errors are XmlCursor's (xml-cursor.ts).
 */
import type { ErrorCode } from '../errors.js';
import { XmlCursor } from './xml-cursor.js';

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  /** 1-based line of the element's start tag. */
  line: number;
  /** Concatenated text and CDATA directly inside the element (not its children's). */
  text: string;
  children: XmlElement[];
}

/** Parses `text`; a syntax error throws `code` with "file:line: reason". */
export function readXml(text: string, file: string, code: ErrorCode = 'NUTCH_CONFIG_INVALID_XML'): XmlElement {
  const cur = new XmlCursor(text, file, code);
  const src = cur.src;
  /** The open elements, innermost last. */
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (cur.pos < src.length) {
    const lt = src.indexOf('<', cur.pos);
    readText(cur, lt < 0 ? src.length : lt, stack);
    if (lt < 0) break;
    if (skipMarkup(cur, lt, stack)) continue;
    if (src[lt + 1] === '/') {
      readEndTag(cur, lt, stack);
      continue;
    }
    const { el, selfClosing } = readStartTag(cur, lt);
    if (stack.length) stack[stack.length - 1]!.children.push(el);
    else if (root) cur.fail(lt, `second root element <${el.name}> (the root is <${root.name}> on line ${root.line})`);
    else root = el;
    if (!selfClosing) stack.push(el);
  }
  if (stack.length) {
    const open = stack[stack.length - 1]!;
    cur.fail(open, `element <${open.name}> opened on line ${open.line} is never closed`);
  }
  if (!root) cur.fail(0, 'no root element');
  return root!;
}

/** Text up to `end` belongs to the open element; outside the root only whitespace may stand. */
function readText(cur: XmlCursor, end: number, stack: XmlElement[]): void {
  if (end <= cur.pos) return;
  const chunk = cur.src.slice(cur.pos, end);
  if (stack.length) stack[stack.length - 1]!.text += cur.decode(chunk, cur.pos);
  else if (chunk.trim() !== '') cur.fail(cur.pos, 'text outside the root element');
}

/**
 * Comments, CDATA, processing instructions and a DOCTYPE at `lt`: skipped (CDATA's text kept).
 * Returns false when the markup at `lt` is a tag.
 */
function skipMarkup(cur: XmlCursor, lt: number, stack: XmlElement[]): boolean {
  const src = cur.src;
  if (src.startsWith('<!--', lt)) {
    const end = src.indexOf('-->', lt + 4);
    if (end < 0) cur.fail(lt, 'comment opened here is never closed (-->)');
    cur.pos = end + 3;
  } else if (src.startsWith('<![CDATA[', lt)) {
    const end = src.indexOf(']]>', lt + 9);
    if (end < 0) cur.fail(lt, 'CDATA section opened here is never closed (]]>)');
    if (!stack.length) cur.fail(lt, 'CDATA outside the root element');
    stack[stack.length - 1]!.text += src.slice(lt + 9, end);
    cur.pos = end + 3;
  } else if (src.startsWith('<?', lt)) {
    const end = src.indexOf('?>', lt + 2);
    if (end < 0) cur.fail(lt, 'processing instruction opened here is never closed (?>)');
    cur.pos = end + 2;
  } else if (src.startsWith('<!DOCTYPE', lt)) {
    const end = src.indexOf('>', lt);
    if (end < 0) cur.fail(lt, 'DOCTYPE opened here is never closed');
    if (src.slice(lt, end).includes('[')) cur.fail(lt, 'a DOCTYPE with an internal subset is not supported');
    cur.pos = end + 1;
  } else {
    return false;
  }
  return true;
}

/** `</name>` at `lt` closes the innermost open element, which must have that name. */
function readEndTag(cur: XmlCursor, lt: number, stack: XmlElement[]): void {
  const name = cur.readName(lt + 2);
  cur.pos = lt + 2 + name.length;
  cur.skipSpace();
  if (cur.src[cur.pos] !== '>') cur.fail(cur.pos, `expected ">" to end </${name}`);
  cur.pos++;
  const open = stack.pop();
  if (!open) cur.fail(lt, `closing tag </${name}> has no open element`);
  if (open!.name !== name) cur.fail(lt, `closing tag </${name}> does not match <${open!.name}> opened on line ${open!.line}`);
}

/** `<name attr="value" …>` or `<name …/>` at `lt`. */
function readStartTag(cur: XmlCursor, lt: number): { el: XmlElement; selfClosing: boolean } {
  const src = cur.src;
  const name = cur.readName(lt + 1);
  const el: XmlElement = { name, attributes: {}, line: cur.lineAt(lt), text: '', children: [] };
  cur.pos = lt + 1 + name.length;
  for (;;) {
    const before = cur.pos;
    cur.skipSpace();
    if (src.startsWith('/>', cur.pos)) {
      cur.pos += 2;
      return { el, selfClosing: true };
    }
    if (src[cur.pos] === '>') {
      cur.pos++;
      return { el, selfClosing: false };
    }
    if (cur.pos >= src.length) cur.fail(lt, `start tag <${name}> is never closed (>)`);
    if (cur.pos === before) cur.fail(cur.pos, `expected whitespace before an attribute of <${name}>`);
    readAttribute(cur, el);
  }
}

/** One `attr="value"` (or single-quoted) of `el`, its value decoded; a repeated attribute is an error. */
function readAttribute(cur: XmlCursor, el: XmlElement): void {
  const src = cur.src;
  const attr = cur.readName(cur.pos);
  cur.pos += attr.length;
  cur.skipSpace();
  if (src[cur.pos] !== '=') cur.fail(cur.pos, `attribute ${attr} of <${el.name}> needs ="value"`);
  cur.pos++;
  cur.skipSpace();
  const quote = src[cur.pos];
  if (quote !== '"' && quote !== "'") cur.fail(cur.pos, `the value of attribute ${attr} must be quoted`);
  const close = src.indexOf(quote!, cur.pos + 1);
  if (close < 0) cur.fail(cur.pos, `the value of attribute ${attr} is never closed`);
  if (Object.hasOwn(el.attributes, attr)) cur.fail(cur.pos, `attribute ${attr} appears twice on <${el.name}>`);
  el.attributes[attr] = cur.decode(src.slice(cur.pos + 1, close), cur.pos);
  cur.pos = close + 1;
}

/** The children of `el` named `name`. */
export function childrenNamed(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name);
}

/** The trimmed text of the first child named `name`, or undefined. */
export function childText(el: XmlElement, name: string): string | undefined {
  return el.children.find((c) => c.name === name)?.text.trim();
}
