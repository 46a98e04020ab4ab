import type { Content, HtmlParseFilter, ParseResult } from '../../../../sdk/plugin.js';

export class ThrowingFilter implements HtmlParseFilter {
  filter(_content: Content, _result: ParseResult): ParseResult {
    throw new Error('filter exploded');
  }
}
