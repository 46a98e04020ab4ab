/**
 * Nutch's protocol-file: a file: URL names a local file or directory. Files are read up to
 * file.content.limit (truncation flagged LENGTH); directories become an HTML listing as Nutch's
 * FileResponse.list2html (`Index of <path>` with one link per entry, `../` when file.crawl.parent);
 * a non-canonical path (symlink, `..`) redirects to its canonical one when
 * file.crawl.redirect_noncanonical. Missing: NOTFOUND; unreadable: ACCESS_DENIED; unchanged since
 * datum.modifiedTime: NOTMODIFIED. robots.txt does not apply: every URL is allowed.
 */
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  ContentMeta, ProtocolStatusCode, RobotRulesSet, createContent, effectiveContentLimit, protocolStatus,
  type CrawlDatum, type PluginContext, type Protocol, type ProtocolOutput, type RobotRules,
} from '../../sdk/plugin.js';
import { mimeTypeOf } from './mime-types.js';

export class File implements Protocol {
  private readonly limit: number;
  private readonly crawlParent: boolean;
  private readonly redirectNonCanonical: boolean;

  constructor(ctx: PluginContext) {
    // -1 still stops at fetcher.content.ceiling (a 10 GB file is stored truncated, not read whole)
    this.limit = effectiveContentLimit(ctx.conf, ctx.conf.getInt('file.content.limit', 1_048_576));
    this.crawlParent = ctx.conf.getBoolean('file.crawl.parent', true);
    this.redirectNonCanonical = ctx.conf.getBoolean('file.crawl.redirect_noncanonical', true);
  }

  async getProtocolOutput(url: string, datum: CrawlDatum): Promise<ProtocolOutput> {
    let path: string;
    try {
      path = fileURLToPath(url);
    } catch (err) {
      return { content: null, status: protocolStatus(ProtocolStatusCode.EXCEPTION, `not a local file URL: ${url.slice(0, 200)} (${(err as Error).message})`) };
    }
    try {
      const canonical = await realpath(path);
      const info = await stat(canonical);
      const trailing = path.endsWith('/') ? '/' : '';
      if (this.redirectNonCanonical && canonical !== path.replace(/\/+$/, '') && canonical + trailing !== path) {
        const target = pathToFileURL(canonical + (info.isDirectory() ? '/' : '')).href;
        return { content: null, status: protocolStatus(ProtocolStatusCode.MOVED, target) };
      }
      if (datum.modifiedTime > 0 && info.mtimeMs <= datum.modifiedTime) {
        const s = protocolStatus(ProtocolStatusCode.NOTMODIFIED);
        s.lastModified = info.mtimeMs;
        return { content: null, status: s };
      }
      const metadata: Record<string, string[]> = { [ContentMeta.LAST_MODIFIED]: [new Date(info.mtimeMs).toUTCString()] };
      let bytes: Uint8Array;
      let contentType: string;
      if (info.isDirectory()) {
        bytes = new TextEncoder().encode(await this.listing(canonical));
        contentType = 'text/html';
      } else {
        const read = await readLimited(canonical, info.size, this.limit);
        bytes = read;
        contentType = mimeTypeOf(canonical);
        if (info.size > this.limit) metadata[ContentMeta.TRUNCATED] = ['LENGTH'];
      }
      metadata[ContentMeta.CONTENT_TYPE] = [contentType];
      metadata[ContentMeta.CONTENT_LENGTH] = [String(info.isDirectory() ? bytes.length : info.size)];
      const status = protocolStatus(ProtocolStatusCode.SUCCESS);
      status.lastModified = info.mtimeMs;
      return { content: createContent({ url, baseUrl: url, content: bytes, contentType, metadata }), status };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return { content: null, status: protocolStatus(ProtocolStatusCode.NOTFOUND, `File: ${path} not found`) };
      if (code === 'EACCES' || code === 'EPERM') return { content: null, status: protocolStatus(ProtocolStatusCode.ACCESS_DENIED, `File: ${path} not readable`) };
      return { content: null, status: protocolStatus(ProtocolStatusCode.EXCEPTION, `File: ${path}: ${(err as Error).message}`) };
    }
  }

  async getRobotRules(): Promise<RobotRules> {
    return RobotRulesSet.allowAll();
  }

  private async listing(dir: string): Promise<string> {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const title = escapeHtml(dir.endsWith('/') ? dir : dir + '/');
    const lines = [`<html><head><title>Index of ${title}</title></head>`, `<body><h1>Index of ${title}</h1><pre>`];
    if (this.crawlParent && dir !== '/') lines.push('<a href="../">../</a>\t-\t-\t-');
    for (const e of entries) {
      const name = e.name + (e.isDirectory() ? '/' : '');
      let size = '-';
      let date = '-';
      try {
        const s = await stat(`${dir}/${e.name}`);
        date = new Date(s.mtimeMs).toUTCString();
        if (!e.isDirectory()) size = String(s.size);
      } catch {
        // a dangling symlink is still listed
      }
      lines.push(`<a href="${escapeHtml(encodeURIComponent(e.name))}${e.isDirectory() ? '/' : ''}">${escapeHtml(name)}</a>\t${date}\t${size}`);
    }
    lines.push('</pre></body></html>');
    return lines.join('\n') + '\n';
  }
}

async function readLimited(path: string, size: number, limit: number): Promise<Uint8Array> {
  const want = Math.min(size, limit);
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(want);
    let off = 0;
    while (off < want) {
      const { bytesRead } = await fh.read(buf, off, want - off, off);
      if (bytesRead === 0) break;
      off += bytesRead;
    }
    return buf.subarray(0, off);
  } finally {
    await fh.close();
  }
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
