/** protocol-file: Nutch's protocol-file for file: URLs. */
export { File } from './file-protocol.js';
