/**
 * A small XML reader for Nutch's configuration files (nutch-site.xml, nutch-default.xml,
 * parse-plugins.xml, index-writers.xml): elements with attributes, text, the five entities and
 * character references, comments, CDATA, processing instructions and a DOCTYPE without an internal
 * subset. It keeps the line of every element, so errors and provenance name the file and line.
 * Namespaces are not resolved: an element keeps its prefixed name (`xi:include`).
 */
import { NutchError, type ErrorCode } from '../errors.js';

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  /** 1-based line of the element's start tag. */
  line: number;
  /** Concatenated text and CDATA directly inside the element (not its children's). */
  text: string;
  children: XmlElement[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const NAME = /[A-Za-z_:][\w.:-]*/y;

/** Parses `text`; a syntax error throws `code` with "file:line: reason". */
export function readXml(text: string, file: string, code: ErrorCode = 'NUTCH_CONFIG_INVALID_XML'): XmlElement {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let pos = 0;
  let line = 1;
  let counted = 0;
  const lineAt = (at: number): number => {
    if (at < counted) {
      line = 1;
      counted = 0;
    }
    for (; counted < at; counted++) if (src.charCodeAt(counted) === 10) line++;
    return line;
  };
  /** `at` is an offset in the text, or `{ line }` when the culprit is an element opened earlier. */
  const fail = (at: number | { line: number }, reason: string): never => {
    const l = typeof at === 'number' ? lineAt(at) : at.line;
    throw new NutchError(code, `${file}:${l}: malformed XML: ${reason}`, { file, line: l });
  };
  const decode = (raw: string, at: number): string =>
    raw.includes('&')
      ? raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);|&/g, (_m, ent: string | undefined) => {
        if (!ent) return fail(at, 'a bare "&" must be written &amp;');
        if (ent.startsWith('#')) {
          const cp = ent[1] === 'x' ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
          return cp <= 0x10ffff ? String.fromCodePoint(cp) : fail(at, `character reference &${ent}; is out of range`);
        }
        return ENTITIES[ent] ?? fail(at, `unknown entity &${ent}; (only &amp; &lt; &gt; &quot; &apos; are defined)`);
      })
      : raw;
  const readName = (at: number): string => {
    NAME.lastIndex = at;
    const m = NAME.exec(src);
    return m ? m[0] : fail(at, `expected a name at "${src.slice(at, at + 20)}"`);
  };
  const skipSpace = () => {
    while (pos < src.length && ' \t\r\n'.includes(src[pos]!)) pos++;
  };

  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (pos < src.length) {
    const lt = src.indexOf('<', pos);
    const textEnd = lt < 0 ? src.length : lt;
    if (textEnd > pos) {
      const chunk = src.slice(pos, textEnd);
      if (stack.length) stack[stack.length - 1]!.text += decode(chunk, pos);
      else if (chunk.trim() !== '') fail(pos, 'text outside the root element');
    }
    if (lt < 0) break;
    if (src.startsWith('<!--', lt)) {
      const end = src.indexOf('-->', lt + 4);
      if (end < 0) fail(lt, 'comment opened here is never closed (-->)');
      pos = end + 3;
    } else if (src.startsWith('<![CDATA[', lt)) {
      const end = src.indexOf(']]>', lt + 9);
      if (end < 0) fail(lt, 'CDATA section opened here is never closed (]]>)');
      if (!stack.length) fail(lt, 'CDATA outside the root element');
      stack[stack.length - 1]!.text += src.slice(lt + 9, end);
      pos = end + 3;
    } else if (src.startsWith('<?', lt)) {
      const end = src.indexOf('?>', lt + 2);
      if (end < 0) fail(lt, 'processing instruction opened here is never closed (?>)');
      pos = end + 2;
    } else if (src.startsWith('<!DOCTYPE', lt)) {
      const end = src.indexOf('>', lt);
      if (end < 0) fail(lt, 'DOCTYPE opened here is never closed');
      if (src.slice(lt, end).includes('[')) fail(lt, 'a DOCTYPE with an internal subset is not supported');
      pos = end + 1;
    } else if (src[lt + 1] === '/') {
      const name = readName(lt + 2);
      pos = lt + 2 + name.length;
      skipSpace();
      if (src[pos] !== '>') fail(pos, `expected ">" to end </${name}`);
      pos++;
      const open = stack.pop();
      if (!open) fail(lt, `closing tag </${name}> has no open element`);
      if (open!.name !== name) fail(lt, `closing tag </${name}> does not match <${open!.name}> opened on line ${open!.line}`);
    } else {
      const name = readName(lt + 1);
      const el: XmlElement = { name, attributes: {}, line: lineAt(lt), text: '', children: [] };
      pos = lt + 1 + name.length;
      let selfClosing = false;
      for (;;) {
        const before = pos;
        skipSpace();
        if (src.startsWith('/>', pos)) {
          selfClosing = true;
          pos += 2;
          break;
        }
        if (src[pos] === '>') {
          pos++;
          break;
        }
        if (pos >= src.length) fail(lt, `start tag <${name}> is never closed (>)`);
        if (pos === before) fail(pos, `expected whitespace before an attribute of <${name}>`);
        const attr = readName(pos);
        pos += attr.length;
        skipSpace();
        if (src[pos] !== '=') fail(pos, `attribute ${attr} of <${name}> needs ="value"`);
        pos++;
        skipSpace();
        const quote = src[pos];
        if (quote !== '"' && quote !== "'") fail(pos, `the value of attribute ${attr} must be quoted`);
        const close = src.indexOf(quote!, pos + 1);
        if (close < 0) fail(pos, `the value of attribute ${attr} is never closed`);
        if (attr in el.attributes) fail(pos, `attribute ${attr} appears twice on <${name}>`);
        el.attributes[attr] = decode(src.slice(pos + 1, close), pos);
        pos = close + 1;
      }
      if (stack.length) stack[stack.length - 1]!.children.push(el);
      else if (root) fail(lt, `second root element <${name}> (the root is <${root.name}> on line ${root.line})`);
      else root = el;
      if (!selfClosing) stack.push(el);
    }
  }
  if (stack.length) {
    const open = stack[stack.length - 1]!;
    fail(open, `element <${open.name}> opened on line ${open.line} is never closed`);
  }
  if (!root) fail(0, 'no root element');
  return root!;
}

/** The children of `el` named `name`. */
export function childrenNamed(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name);
}

/** The trimmed text of the first child named `name`, or undefined. */
export function childText(el: XmlElement, name: string): string | undefined {
  return el.children.find((c) => c.name === name)?.text.trim();
}
