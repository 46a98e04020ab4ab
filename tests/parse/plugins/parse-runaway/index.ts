import type { Content, ParseResult, Parser } from '../../../../sdk/plugin.js';

export class LoopingParser implements Parser {
  getParse(_content: Content): ParseResult {
    for (;;) {
      // a runaway parse: never yields
    }
  }
}

export class CrashingParser implements Parser {
  getParse(_content: Content): Promise<ParseResult> {
    return new Promise(() => {
      setImmediate(() => {
        throw new Error('uncaught inside the parse worker');
      });
    });
  }
}

export class ThrowingParser implements Parser {
  getParse(content: Content): ParseResult {
    throw new Error(`cannot parse ${content.url}`);
  }
}
