/**
 * A dependency loaded when it is first used rather than when a module naming it is: the CLI's start-up
 * and every parse worker evaluate only what their command uses (undici for a fetch, the SQLite driver
 * for a store, pg for a PostgreSQL pool, the public suffix list for a domain, semver for a host range).
 * Node caches the module; the returned function also keeps it, so each later call is a field read.
 */
import { createRequire } from 'node:module';

const requireFromHere = createRequire(import.meta.url);

/** A function returning `specifier`'s exports, required (synchronously) at its first call. */
export function lazyModule<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireFromHere(specifier) as T);
}
