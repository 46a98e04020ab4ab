/**
 * headings, as Nutch's HeadingsParseFilter: for each element name in `headings` (h1, h2 by default) the
 * text of the first such element in the page — or of every one, in document order, with
 * headings.multivalued — goes into the parse metadata under that name, whitespace collapsed; empty
 * headings are skipped. The DOM walk is iterative (a 50,000-deep page costs no stack).
 */
import type { Content, HtmlParseFilter, ParseResult, PluginContext } from '../../sdk/plugin.js';

interface DomNode {
  type?: string;
  name?: string;
  data?: string;
  children?: DomNode[];
}

function textOf(node: DomNode): string {
  let out = '';
  const stack: DomNode[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text') out += n.data ?? '';
    else if (n.children && n.type !== 'script' && n.type !== 'style') for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out.replace(/\s+/g, ' ').trim();
}

export class HeadingsParseFilter implements HtmlParseFilter {
  private readonly names: string[];
  private readonly multivalued: boolean;

  constructor(ctx: PluginContext) {
    this.names = ctx.conf.getStrings('headings').map((h) => h.trim().toLowerCase()).filter(Boolean);
    this.multivalued = ctx.conf.getBoolean('headings.multivalued', false);
  }

  filter(content: Content, parseResult: ParseResult, _metaTags: unknown, doc: unknown): ParseResult {
    const parse = parseResult.parses[content.url] ?? Object.values(parseResult.parses)[0];
    if (!parse || !this.names.length) return parseResult;
    const wanted = new Set(this.names);
    const found = new Map<string, string[]>();
    const stack: DomNode[] = [doc as DomNode];
    while (stack.length) {
      const node = stack.pop()!;
      if (node.type === 'tag' && node.name && wanted.has(node.name)) {
        const list = found.get(node.name) ?? [];
        if (this.multivalued || list.length === 0) {
          const text = textOf(node);
          if (text) found.set(node.name, [...list, text]);
        }
      }
      const kids = node.children;
      if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
    for (const name of this.names) {
      const values = found.get(name);
      if (values?.length) parse.data.parseMeta[name] = values;
    }
    return parseResult;
  }
}
