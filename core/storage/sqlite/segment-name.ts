/**
 * Segment names and directories of the embedded engine. Names are Nutch's Generator's: the local
 * time as yyyyMMddHHmmss. A directory is claimed with an exclusive mkdir, so two processes never
 * get the same segment; a taken name moves one second forward, as Nutch's Generator waits a second
 * between segments.
 */
import fs from 'node:fs';
import path from 'node:path';

export { SEGMENT_NAME, formatSegmentName } from '../segment-names.js';
import { formatSegmentName } from '../segment-names.js';
import { makeDirectory } from './make-directory.js';
const STAGED = /^\.(\d{14})\.inprogress$/;

/** Where a segment is written before publish() renames it into place. Hidden from listSegments. */
export function stagingPath(segmentsDir: string, name: string): string {
  return path.join(segmentsDir, `.${name}.inprogress`);
}

/**
 * Creates the directory of a new segment — staged (`.<name>.inprogress`) or final — and returns its
 * name. With `name` given, that name or NUTCH_STORAGE_EXISTS; else now, moved forward while taken.
 */
export function claimSegmentDir(segmentsDir: string, opts: { name?: string; staged: boolean; now?: number }): string {
  makeDirectory(segmentsDir);
  for (let t = opts.now ?? Date.now(); ; t += 1000) {
    const name = opts.name ?? formatSegmentName(t);
    const final = path.join(segmentsDir, name);
    const staging = stagingPath(segmentsDir, name);
    const taken = fs.existsSync(final) || fs.existsSync(staging);
    if (!taken) {
      try {
        fs.mkdirSync(opts.staged ? staging : final);
        return name;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    if (opts.name !== undefined) return opts.name; // an explicit name is the caller's to keep or fail on
  }
}

/** Names of the staged segments under a segments dir. */
export function stagedSegmentNames(segmentsDir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(segmentsDir);
  } catch {
    return [];
  }
  return names.map((n) => STAGED.exec(n)?.[1]).filter((n): n is string => n !== undefined).sort();
}
