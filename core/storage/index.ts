/** Storage: the contracts stages code against, the embedded SQLite engine (the default) and the PostgreSQL engine. */
export * from './interfaces.js';
export * from './sqlite/index.js';
export * from './postgres/index.js';
