/**
 * Seed input for the Injector: the files of a url_dir (or one file), read line by line with a cap
 * on line length, so a 1 GB line without a newline never sits in memory. Lines keep their number
 * for file:line messages; bytes that are not UTF-8 are reported, never guessed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NutchError } from '../../errors.js';

export interface SeedLine {
  file: string;
  line: number;
  /** Decoded text, or null when the bytes are not valid UTF-8. */
  text: string | null;
  /** The line was longer than the cap; text holds its first `cap` bytes. */
  tooLong: boolean;
}

/** The seed files to read: a file as is, or a directory's regular files (hidden and _ files skipped, as Hadoop). */
export function listSeedFiles(urlDir: string, warn: (msg: string) => void): string[] {
  const st = fs.statSync(urlDir, { throwIfNoEntry: false });
  if (!st) throw new NutchError('NUTCH_INJECT_NO_SEEDS', `Seed path ${urlDir} does not exist. Give a seed file or a directory of seed files.`, { file: urlDir });
  if (st.isFile()) return [urlDir];
  const files: string[] = [];
  for (const e of fs.readdirSync(urlDir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.name.startsWith('.') || e.name.startsWith('_')) continue;
    const full = path.join(urlDir, e.name);
    if (e.isFile() || (e.isSymbolicLink() && fs.statSync(full, { throwIfNoEntry: false })?.isFile())) files.push(full);
    else warn(`Skipped non-file input in ${urlDir}: ${full}`);
  }
  if (files.length === 0) throw new NutchError('NUTCH_INJECT_NO_SEEDS', `No seed files to inject found in ${urlDir}.`, { file: urlDir });
  return files;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function decode(bytes: Buffer): string | null {
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/** Lines of one file; `cap` bounds the bytes kept per line. */
export async function* readSeedLines(file: string, cap: number): AsyncGenerator<SeedLine> {
  let parts: Buffer[] = [];
  let kept = 0;
  let tooLong = false;
  let line = 0;
  const finish = (): SeedLine => {
    line++;
    let buf = Buffer.concat(parts, kept);
    if (buf.length > 0 && buf[buf.length - 1] === 0x0d) buf = buf.subarray(0, buf.length - 1);
    const out = { file, line, text: decode(buf), tooLong };
    parts = [];
    kept = 0;
    tooLong = false;
    return out;
  };
  const keep = (chunk: Buffer) => {
    if (tooLong) return;
    const room = cap - kept;
    if (chunk.length > room) {
      tooLong = true;
      if (room > 0) { parts.push(chunk.subarray(0, room)); kept += room; }
    } else if (chunk.length > 0) {
      parts.push(chunk);
      kept += chunk.length;
    }
  };
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) break;
      keep(chunk.subarray(start, nl));
      yield finish();
      start = nl + 1;
    }
    keep(Buffer.from(chunk.subarray(start)));
  }
  if (kept > 0 || tooLong) yield finish();
}
