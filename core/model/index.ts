export * from './metadata.js';
export * from './crawl-datum.js';
export * from './content.js';
export * from './protocol-status.js';
export * from './parse.js';
export * from './inlinks.js';
export * from './nutch-document.js';
export * from './host-datum.js';
