import { closeSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { createParseData, singleParseResult, type Content, type ParseResult, type Parser } from '../../../../sdk/plugin.js';

const result = (content: Content, meta: Record<string, string>): ParseResult => singleParseResult(content.url, {
  text: '',
  data: createParseData({ title: '', outlinks: [], contentMeta: content.metadata, parseMeta: Object.fromEntries(Object.entries(meta).map(([k, v]) => [k, [v]])) }),
  isCanonical: true,
});

/** Holds a lock file (shared by every worker of the process) while it "parses": a second parse
 * meeting the file means two ran at once, which it reports in parse metadata. */
export class OverlapParser implements Parser {
  async getParse(content: Content): Promise<ParseResult> {
    const lock = join(tmpdir(), `parse-memory-overlap-${process.pid}.lock`);
    let fd: number;
    try {
      fd = openSync(lock, 'wx');
    } catch {
      return result(content, { 'test.overlap': 'yes', 'test.thread': String(threadId) });
    }
    await new Promise((r) => setTimeout(r, 150));
    closeSync(fd);
    rmSync(lock, { force: true });
    return result(content, { 'test.overlap': 'no', 'test.thread': String(threadId) });
  }
}

const kept: Uint8Array[] = [];

/** Keeps 80 MB of buffers alive after it answers, as a library abandoned mid-way may. */
export class RetainingParser implements Parser {
  getParse(content: Content): ParseResult {
    if (content.url.endsWith('/keep')) kept.push(new Uint8Array(80 * 1024 * 1024).fill(1));
    return result(content, { 'test.thread': String(threadId) });
  }
}
