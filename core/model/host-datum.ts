/**
 * HostDatum: the HostDb's record of one host, with the fields of Nutch's org.apache.nutch.hostdb.HostDatum.
 * Counts per CrawlDb status come from the CrawlDb (updatehostdb -crawldb); DNS failures and the last
 * check from the resolver (-checkNew, -checkKnown, -checkFailed). Times are epoch milliseconds.
 */

/** Statistics and custom values (`avg._rs_`, `pct95._rs_`, `Content-Type.text/html`): numbers, or text. */
export type HostMetadata = Record<string, number | string>;

export interface HostDatum {
  score: number;
  /** When the resolver last checked the host; 0 = never (Nutch's isEmpty()). */
  lastCheck: number;
  /** The host's home page (`http://host/`, or where it redirects); '' when unknown. */
  homepageUrl: string;
  dnsFailures: number;
  /** CrawlDb records of the host with retries since the last fetch (Nutch's connectionFailures). */
  connectionFailures: number;
  unfetched: number;
  fetched: number;
  notModified: number;
  redirTemp: number;
  redirPerm: number;
  gone: number;
  metaData: HostMetadata;
}

export function createHostDatum(init: Partial<HostDatum> = {}): HostDatum {
  return {
    score: 0,
    lastCheck: 0,
    homepageUrl: '',
    dnsFailures: 0,
    connectionFailures: 0,
    unfetched: 0,
    fetched: 0,
    notModified: 0,
    redirTemp: 0,
    redirPerm: 0,
    gone: 0,
    metaData: {},
    ...init,
  };
}

/** Nutch's HostDatum.numRecords(): CrawlDb records of the host in the counted statuses. */
export function numRecords(d: HostDatum): number {
  return d.unfetched + d.fetched + d.gone + d.redirPerm + d.redirTemp + d.notModified;
}

/** Nutch's HostDatum.numFailures(). */
export function numFailures(d: HostDatum): number {
  return d.dnsFailures + d.connectionFailures;
}

/** Never checked by the resolver (Nutch's isEmpty()). */
export function isUnchecked(d: HostDatum): boolean {
  return d.lastCheck === 0;
}

/** Nutch's resetStatistics(): the CrawlDb counts are rebuilt from the CrawlDb on every update. */
export function resetStatistics(d: HostDatum): HostDatum {
  return { ...d, unfetched: 0, fetched: 0, notModified: 0, redirTemp: 0, redirPerm: 0, gone: 0 };
}
