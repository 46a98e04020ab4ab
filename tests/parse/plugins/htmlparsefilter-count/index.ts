import { threadId } from 'node:worker_threads';
import type { Content, HtmlParseFilter, HTMLMetaTags, ParseResult } from '../../../../sdk/plugin.js';

interface DomNode { type: string; children?: DomNode[] }

export class CountingFilter implements HtmlParseFilter {
  filter(content: Content, result: ParseResult, metaTags: HTMLMetaTags, doc: unknown): ParseResult {
    let elements = 0;
    const stack: DomNode[] = [doc as DomNode];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === 'tag') elements++;
      if (n.children) stack.push(...n.children);
    }
    const parse = result.parses[content.url]!;
    parse.data.parseMeta['test.elements'] = [String(elements)];
    parse.data.parseMeta['test.thread'] = [String(threadId)];
    parse.data.parseMeta['test.nofollow'] = [String(metaTags.noFollow)];
    return result;
  }
}
