export * from './configuration.js';
export * from './property-types.js';
export * from './load-configuration.js';
export * from './defines.js';
export * from './json-file.js';
export * from './json-error-offset.js';
export * from './package-root.js';
