/**
 * The hosts `sitemap -hostdb` (and crawl --sitemaps-from-hostdb) asks for their sitemaps, as Nutch's
 * SitemapProcessor reads them from the HostDb. A host whose home page is known is asked at that page's
 * origin, so a port or https is kept (`http://127.0.0.2:8080`); others by name (http, https, ftp, file).
 */
import { NutchError } from '../../errors.js';
import type { StorageEngine } from '../../storage/interfaces.js';

/** Checks the HostDb exists (NUTCH_STORAGE_NOT_FOUND otherwise), then streams its hosts in host order. */
export async function sitemapHostsOf(storage: StorageEngine, hostDbPath: string): Promise<AsyncIterable<string>> {
  const probe = await storage.openHostDb(hostDbPath);
  try {
    if (!(await probe.exists())) {
      throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `HostDb ${hostDbPath} does not exist (sitemap -hostdb); build it with nutch updatehostdb -hostdb ${hostDbPath} -crawldb <crawldb>.`, { file: hostDbPath });
    }
  } finally {
    await probe.close();
  }
  return (async function* () {
    const hostDb = await storage.openHostDb(hostDbPath);
    try {
      for await (const { host, datum } of hostDb.scan()) {
        let origin: string | null = null;
        try {
          origin = datum.homepageUrl ? new URL(datum.homepageUrl).origin : null;
        } catch {
          origin = null;
        }
        yield origin && origin !== 'null' ? origin : host;
      }
    } finally {
      await hostDb.close();
    }
  })();
}
