/**
 * dump, as Nutch's FileDumper: the raw content of every segment under a directory written out as
 * files, optionally only some MIME types (-mimetype), or only counted (-mimeStats). Layout as Nutch's:
 * by default `<out>/<md5[0..2]>/<md5[2..4]>/<md5>_<name>.<ext>` (md5 of the URL; name and extension
 * from the URL's last path segment, `html` when it has none), -flatdir puts every file in `<out>`,
 * -reverseUrlDirs uses `<out>/<host reversed, one directory per label>/<SHA-256 of the URL>`; a file
 * that exists is not written again; `<out>/<segment>_filenameToUrl.json` maps each file to its URL.
 * The MIME type is the stored content type (Nutch asks Tika to detect it from the bytes; nutch-ts has
 * no Tika: protocol-http's type is the server's Content-Type, sniffed when absent).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NutchContext } from '../context.js';
import { count, type Counters, type StageOptions } from '../progress.js';

export interface DumpArgs {
  outputDir: string;
  /** A directory of segments (as Nutch's -segment) or one segment. */
  segmentRoot: string;
  mimeTypes?: string[];
  flatDir?: boolean;
  mimeStats?: boolean;
  reverseUrlDirs?: boolean;
}

export interface DumpResult {
  counters: Counters;
  /** Documents per MIME type, all of them and those that passed -mimetype. */
  total: Map<string, number>;
  filtered: Map<string, number>;
}

export async function dumpFiles(ctx: NutchContext, args: DumpArgs, opts: StageOptions = {}): Promise<DumpResult> {
  const counters: Counters = { files: 0 };
  const total = new Map<string, number>();
  const filtered = new Map<string, number>();
  const wanted = args.mimeTypes?.length ? new Set(args.mimeTypes.map((m) => m.toLowerCase())) : null;
  let segments = await ctx.storage.listSegments(args.segmentRoot);
  if (segments.length === 0) segments = [args.segmentRoot]; // one segment named directly; openSegment says if it is none
  if (!args.mimeStats) mkdirSync(args.outputDir, { recursive: true });
  for (const path of segments) {
    if (opts.signal?.aborted) break;
    const seg = await ctx.storage.openSegment(path);
    const filenameToUrl: Record<string, string> = {};
    try {
      if (!(await seg.hasPart('content'))) {
        ctx.log.warn(`dump: skipping segment ${path}: it has no content`);
        count(counters, 'segments skipped');
        continue;
      }
      ctx.log.info(`dump: processing segment ${path}`);
      for await (const { url, value: content } of seg.read('content')) {
        if (opts.signal?.aborted) break;
        const mime = (content.contentType.split(';')[0] ?? '').trim().toLowerCase() || 'application/octet-stream';
        total.set(mime, (total.get(mime) ?? 0) + 1);
        if (wanted && !wanted.has(mime)) continue;
        filtered.set(mime, (filtered.get(mime) ?? 0) + 1);
        if (args.mimeStats) continue;
        const file = outputPath(args, url);
        filenameToUrl[file] = url;
        if (existsSync(file)) {
          ctx.log.info(`dump: skipping ${file}: file already exists`);
          count(counters, 'files existing');
          continue;
        }
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSync(file, content.content);
        count(counters, 'files');
      }
    } finally {
      await seg.close();
    }
    if (!args.mimeStats) writeFileSync(join(args.outputDir, `${seg.name}_filenameToUrl.json`), JSON.stringify(filenameToUrl, null, 2) + '\n');
  }
  return { counters, total, filtered };
}

function outputPath(args: DumpArgs, url: string): string {
  if (args.reverseUrlDirs) {
    let host = 'unknown';
    try {
      host = new URL(url).hostname || host;
    } catch {
      // keep 'unknown': a content key that is no URL still gets a file
    }
    return join(args.outputDir, ...host.split('.').reverse(), createHash('sha256').update(url).digest('hex').toUpperCase());
  }
  const md5 = createHash('md5').update(url).digest('hex');
  const dir = args.flatDir ? args.outputDir : join(args.outputDir, md5.slice(0, 2), md5.slice(2, 4));
  const { base, ext } = nameOf(url);
  return join(dir, `${md5}_${base}.${ext}`);
}

/** Base name and extension of the URL's last path segment (FilenameUtils on the URL), made safe as a file name. */
function nameOf(url: string): { base: string; ext: string } {
  let last = '';
  try {
    const p = new URL(url).pathname;
    last = decodeURIComponent(p.slice(p.lastIndexOf('/') + 1));
  } catch {
    last = url.slice(url.lastIndexOf('/') + 1);
  }
  const dot = last.lastIndexOf('.');
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 32);
  const base = safe(dot > 0 ? last.slice(0, dot) : last);
  const ext = safe(dot > 0 ? last.slice(dot + 1) : '') || 'html';
  return { base, ext };
}

/** Nutch's "Dumper File Stats" text: TOTAL and FILTER lists of {"mimeType","count"}. */
export function formatMimeStats(total: Map<string, number>, filtered: Map<string, number>): string {
  const list = (m: Map<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1)).map(([mimeType, n]) => `    ${JSON.stringify({ mimeType, count: String(n) })}`).join('\n');
  return `{\n  TOTAL Stats:\n  [\n${list(total)}\n  ]\n\n  FILTER Stats:\n  [\n${list(filtered)}\n  ]\n}`;
}
