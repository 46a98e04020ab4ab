/** Storage: the contracts stages code against, and the embedded SQLite engine (the default). */
export * from './interfaces.js';
export * from './sqlite/index.js';
