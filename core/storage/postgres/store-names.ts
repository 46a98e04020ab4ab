/**
 * Store names inside the database are the paths commands are given, normalised so that every way of
 * naming the same directory names the same store: relative to the engine's working directory, posix
 * separators, no `.` segments or trailing slash. `crawl/crawldb` from the CLI in /data and
 * `/data/crawl/crawldb` from createNutch({ cwd: '/data' }) are both `crawl/crawldb`; a path outside
 * the working directory keeps its absolute form.
 */
import path from 'node:path';

export function storeName(p: string, cwd: string): string {
  const abs = path.resolve(cwd, p);
  const rel = path.relative(path.resolve(cwd), abs);
  const chosen = rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? abs : rel;
  return chosen.split(path.sep).join('/');
}
