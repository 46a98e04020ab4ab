/**
 * mimetype-filter, as Nutch's MimeTypeIndexingFilter: drops a document from the index unless its MIME
 * type passes mimetype-filter.txt (mime-rules.ts). The type is the CrawlDatum's Content-Type metadata,
 * else the page's Content-Type (protocol, then parse metadata), else guessed from the URL's extension
 * (Nutch asks Tika; an unknown extension is application/octet-stream), parameters and case removed.
 */
import { readFileSync } from 'node:fs';
import { getMetaIgnoreCase, resolveConfFile, type IndexingContext, type IndexingFilter, type Logger, type NutchDocument, type PluginContext } from '../../sdk/plugin.js';
import { mimeAccepted, parseMimeRules, type MimeRules } from './mime-rules.js';

const BY_EXTENSION: Record<string, string> = {
  html: 'text/html', htm: 'text/html', xhtml: 'application/xhtml+xml', txt: 'text/plain', xml: 'application/xml', pdf: 'application/pdf',
  json: 'application/json', css: 'text/css', js: 'text/javascript', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif',
  svg: 'image/svg+xml', webp: 'image/webp', rss: 'application/rss+xml', atom: 'application/atom+xml', zip: 'application/zip', gz: 'application/gzip',
  doc: 'application/msword', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', odt: 'application/vnd.oasis.opendocument.text',
  rtf: 'application/rtf', epub: 'application/epub+zip', mp3: 'audio/mpeg', mp4: 'video/mp4',
};

export function mimeOfUrl(url: string): string {
  const m = /\.([a-z0-9]+)$/i.exec(url.replace(/[?#].*$/, ''));
  return (m && BY_EXTENSION[m[1]!.toLowerCase()]) || 'application/octet-stream';
}

export class MimeTypeIndexingFilter implements IndexingFilter {
  private readonly rules: MimeRules | null;
  private readonly log: Logger;

  constructor(ctx: PluginContext) {
    this.log = ctx.log;
    const file = ctx.conf.getString('mimetype.filter.file', '');
    if (!file) {
      ctx.log.warn('mimetype-filter: mimetype.filter.file is empty, so every MIME type is indexed');
      this.rules = null;
      return;
    }
    const path = resolveConfFile(ctx.conf, file, 'mimetype.filter.file');
    this.rules = parseMimeRules(readFileSync(path, 'utf8'), path);
    ctx.log.debug(`mimetype-filter: ${this.rules.acceptMode ? 'accept' : 'reject'} mode, ${this.rules.prefixes.length} type(s) from ${path}`);
  }

  filter(doc: NutchDocument, ctx: IndexingContext): NutchDocument | null {
    if (!this.rules) return doc;
    const datumType = getMetaIgnoreCase(ctx.fetchDatum?.metaData, 'Content-Type') ?? getMetaIgnoreCase(ctx.dbDatum?.metaData, 'Content-Type');
    const declared = datumType ?? getMetaIgnoreCase(ctx.parse.data.contentMeta, 'Content-Type') ?? getMetaIgnoreCase(ctx.parse.data.parseMeta, 'Content-Type');
    const mime = declared ? declared.split(';')[0]!.trim().toLowerCase() : mimeOfUrl(ctx.url);
    if (mimeAccepted(this.rules, mime)) return doc;
    this.log.debug(`mimetype-filter: [${mime}] ${ctx.url} not indexed`);
    return null;
  }
}
