/**
 * protocol-playwright's main module: the Protocol, and a stop() that closes the browsers of the
 * crawler that is closing (Chromium is a child process that must not outlive the crawl).
 */
import { definePlugin } from '../../sdk/plugin.js';
import { PlaywrightProtocol, closeProtocolsOf } from './playwright-protocol.js';

export { PlaywrightProtocol };

export default definePlugin({
  id: 'protocol-playwright',
  stop: (ctx) => closeProtocolsOf(ctx.conf),
  extensions: { PlaywrightProtocol },
});
