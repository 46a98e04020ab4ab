/**
 * mkdir -p for store directories, with the error an operator can act on: when a path component is a
 * regular file (a crawl dir, CrawlDb or segments dir created by mistake as a file), Node's raw
 * EEXIST / ENOTDIR becomes NUTCH_STORAGE_NOT_A_DIRECTORY naming that file and what was expected.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NutchError } from '../../errors.js';
import { diskError, isDiskError } from './disk-error.js';

export function makeDirectory(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (isDiskError(err)) throw diskError(dir, err);
    if (code !== 'EEXIST' && code !== 'ENOTDIR') throw err;
    const culprit = firstNonDirectory(dir) ?? dir;
    throw new NutchError('NUTCH_STORAGE_NOT_A_DIRECTORY',
      `${culprit} is a file, but a directory was expected there (to hold ${dir}). Move or remove the file, or choose another path.`,
      { file: culprit }, { cause: err });
  }
}

/** The first existing component of `dir` (from the root down) that is not a directory. */
function firstNonDirectory(dir: string): string | null {
  const parts = path.resolve(dir).split(path.sep);
  for (let i = 2; i <= parts.length; i++) {
    const p = parts.slice(0, i).join(path.sep) || path.sep;
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      return null;
    }
    if (!st.isDirectory()) return p;
  }
  return null;
}
