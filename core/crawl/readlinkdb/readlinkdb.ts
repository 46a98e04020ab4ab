/**
 * readlinkdb (`nutch readlinkdb <linkdb> (-dump <out_dir> [-regex <regex>] [-format text|json] | -url <url>)`),
 * as Nutch's LinkDbReader. The dump streams the LinkDb in URL order into `<out_dir>/part-00000`, in
 * Nutch's text layout (`<url>\tInlinks:` then ` fromUrl: <from> anchor: <anchor>` lines) or as one
 * JSON object per line; -url prints the inlinks of one URL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { NutchError } from '../../errors.js';
import type { Inlinks } from '../../model/inlinks.js';
import type { NutchContext } from '../context.js';
import { requireExisting } from '../existing-stores.js';
import type { Counters, StageOptions } from '../progress.js';

export interface ReadLinkDbArgs {
  linkDb: string;
  /** Output directory of -dump. */
  dump?: string;
  /** -url: print this URL's inlinks through `write`. */
  url?: string;
  /** -regex: dump only URLs matching it. */
  regex?: string;
  format?: 'text' | 'json';
  /** Where -url lines go (default stdout). */
  write?(line: string): void;
}

/** Nutch's Inlinks.toString(). */
export function formatInlinks(inlinks: Inlinks): string {
  return 'Inlinks:\n' + inlinks.inlinks.map((l) => ` fromUrl: ${l.fromUrl} anchor: ${l.anchor}\n`).join('');
}

export async function readlinkdb(ctx: NutchContext, args: ReadLinkDbArgs, opts: StageOptions = {}): Promise<Counters> {
  if ((args.dump === undefined) === (args.url === undefined)) {
    throw new NutchError('NUTCH_USAGE', 'readlinkdb needs exactly one of -dump <out_dir> or -url <url>.');
  }
  const linkDb = await ctx.storage.openLinkDb(args.linkDb);
  try {
    await requireExisting(linkDb, 'LinkDb', args.linkDb, ' (run nutch invertlinks first).');
    const write = args.write ?? ((line: string) => process.stdout.write(line + '\n'));
    if (args.url !== undefined) {
      const inlinks = await linkDb.get(args.url);
      if (!inlinks || inlinks.inlinks.length === 0) {
        write(' - no link information.');
        return { urls: 0, inlinks: 0 };
      }
      for (const l of inlinks.inlinks) write(args.format === 'json' ? JSON.stringify(l) : `fromUrl: ${l.fromUrl} anchor: ${l.anchor}`);
      return { urls: 1, inlinks: inlinks.inlinks.length };
    }
    return await dump(linkDb, args, opts);
  } finally {
    await linkDb.close();
  }
}

async function dump(linkDb: { scan(): AsyncIterable<{ url: string; value: Inlinks }> }, args: ReadLinkDbArgs, opts: StageOptions): Promise<Counters> {
  let regex: RegExp | null = null;
  if (args.regex !== undefined) {
    try {
      regex = new RegExp(args.regex);
    } catch (err) {
      throw new NutchError('NUTCH_USAGE', `readlinkdb -regex ${JSON.stringify(args.regex)} does not compile: ${(err as Error).message}`);
    }
  }
  const outDir = args.dump!;
  if (fs.existsSync(outDir)) throw new NutchError('NUTCH_USAGE', `Output directory ${outDir} already exists; remove it or choose another.`, { file: outDir });
  fs.mkdirSync(outDir, { recursive: true });
  const out = fs.createWriteStream(path.join(outDir, 'part-00000'));
  const counters: Counters = { urls: 0, inlinks: 0 };
  try {
    for await (const { url, value } of linkDb.scan()) {
      if (opts.signal?.aborted) break;
      if (regex && !regex.test(url)) continue;
      counters.urls!++;
      counters.inlinks! += value.inlinks.length;
      const text = args.format === 'json' ? JSON.stringify({ url, inlinks: value.inlinks }) + '\n' : `${url}\t${formatInlinks(value)}\n`;
      if (!out.write(text)) await once(out, 'drain');
    }
  } finally {
    out.end();
    await once(out, 'finish');
  }
  return counters;
}
