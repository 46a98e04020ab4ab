import { definePlugin, type Content, type ParseResult } from '../../../../sdk/plugin.js';

export default definePlugin({
  start() {
    throw new Error('database of magic numbers unreachable');
  },
  extensions: {
    NeverParser: class {
      getParse(_content: Content): ParseResult {
        throw new Error('unreachable');
      }
    },
  },
});
