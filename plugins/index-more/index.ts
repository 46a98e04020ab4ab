/**
 * index-more, as Nutch's MoreIndexingFilter: `lastModified` and `date` (Last-Modified, else the
 * datum's modified time, else its fetch time), `contentLength` (Content-Length header), `type`
 * (the cleaned MIME type, plus its parts with moreIndexingFilter.indexMimeTypeParts), and a title
 * from Content-Disposition's filename when the page has none.
 */
import { getMetaIgnoreCase, type IndexingContext, type IndexingFilter, type NutchDocument, type PluginContext } from '../../sdk/plugin.js';

/** Extension -> MIME type, for a page without Content-Type (Nutch asks Tika's detector). */
const BY_EXTENSION: Record<string, string> = {
  html: 'text/html', htm: 'text/html', txt: 'text/plain', xml: 'application/xml', pdf: 'application/pdf',
  json: 'application/json', css: 'text/css', js: 'text/javascript', jpg: 'image/jpeg', jpeg: 'image/jpeg',
  png: 'image/png', gif: 'image/gif', svg: 'image/svg+xml', rss: 'application/rss+xml', atom: 'application/atom+xml',
};

export function cleanMimeType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

function mimeFromUrl(url: string): string | undefined {
  try {
    const m = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname);
    return m ? BY_EXTENSION[m[1]!.toLowerCase()] : undefined;
  } catch {
    return undefined;
  }
}

export class MoreIndexingFilter implements IndexingFilter {
  private readonly mimeParts: boolean;

  constructor(ctx: PluginContext) {
    this.mimeParts = ctx.conf.getBoolean('moreIndexingFilter.indexMimeTypeParts', true);
  }

  filter(doc: NutchDocument, ctx: IndexingContext): NutchDocument {
    const data = ctx.parse.data;
    const meta = (name: string) => getMetaIgnoreCase(data.contentMeta, name) ?? getMetaIgnoreCase(data.parseMeta, name);
    const datum = ctx.fetchDatum ?? ctx.dbDatum;

    let time = -1;
    const lastModified = meta('Last-Modified');
    if (lastModified) {
      const t = Date.parse(lastModified);
      if (Number.isFinite(t)) {
        time = t;
        (doc.fields.lastModified ??= []).push(new Date(t));
      }
    }
    if (time === -1 && datum) time = datum.modifiedTime > 0 ? datum.modifiedTime : datum.fetchTime;
    if (time !== -1) (doc.fields.date ??= []).push(new Date(time));

    const length = meta('Content-Length')?.trim();
    if (length) (doc.fields.contentLength ??= []).push(length);

    const contentType = meta('Content-Type');
    const mime = contentType ? cleanMimeType(contentType) : mimeFromUrl(ctx.url);
    if (mime) {
      const types = (doc.fields.type ??= []);
      types.push(mime);
      if (this.mimeParts) for (const part of mime.split('/')) if (part) types.push(part);
    }

    if (!doc.fields.title?.length) {
      const disposition = meta('Content-Disposition');
      const m = disposition ? /filename\s*=\s*"?([^";]+)"?/i.exec(disposition) : null;
      if (m) doc.fields.title = [m[1]!.trim()];
    }
    return doc;
  }
}
