/** protocol-http: Nutch's protocol-http for http: and https: URLs, on undici. */
export { Http } from './http-protocol.js';
