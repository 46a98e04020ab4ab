/**
 * subcollections.xml, as Nutch's CollectionManager reads it: `<subcollections>` holding `<subcollection>`
 * elements, each with `<name>`, `<id>`, `<whitelist>` and `<blacklist>` (one URL fragment per line) and
 * an optional `<key>` (the field to use instead of subcollection.default.fieldname). A URL belongs to a
 * subcollection when no blacklist fragment occurs in it and a whitelist fragment does (substring match,
 * as Subcollection.filter's indexOf).
 */
import { parseDocument, DomUtils } from 'htmlparser2';
import type { Element } from 'domhandler';
import { NutchError } from '../../sdk/plugin.js';

export interface Subcollection {
  name: string;
  id: string;
  key: string | null;
  whitelist: string[];
  blacklist: string[];
}

function childText(el: Element, tag: string): string | null {
  const child = DomUtils.getElementsByTagName(tag, el.children, false, 1)[0];
  return child ? DomUtils.textContent(child).trim() : null;
}

function lines(text: string | null, lowerCase: boolean): string[] {
  return (text ?? '').split(/[\r\n]+/).map((l) => (lowerCase ? l.trim().toLowerCase() : l.trim())).filter(Boolean);
}

export function parseSubcollections(xml: string, origin: string, caseInsensitive: boolean): Subcollection[] {
  const doc = parseDocument(xml, { xmlMode: true });
  const root = doc.children.find((n): n is Element => n.type === 'tag');
  if (!root || root.name !== 'subcollections') throw new NutchError('NUTCH_RULE_FILE_INVALID', `${origin}: the root element must be <subcollections>, found ${root ? `<${root.name}>` : 'none'}`, { file: origin });
  const out: Subcollection[] = [];
  DomUtils.getElementsByTagName('subcollection', root.children, false).forEach((el, i) => {
    const name = childText(el, 'name');
    if (!name) throw new NutchError('NUTCH_RULE_FILE_INVALID', `${origin}: <subcollection> number ${i + 1} has no <name>`, { file: origin });
    out.push({
      name,
      id: childText(el, 'id') ?? name,
      key: childText(el, 'key') || null,
      whitelist: lines(childText(el, 'whitelist'), caseInsensitive),
      blacklist: lines(childText(el, 'blacklist'), caseInsensitive),
    });
  });
  return out;
}

export function inSubcollection(c: Subcollection, url: string): boolean {
  if (c.blacklist.some((b) => url.includes(b))) return false;
  return c.whitelist.some((w) => url.includes(w));
}
