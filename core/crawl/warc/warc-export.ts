/**
 * warc, as Nutch's WARCExporter: the content of segments as WARC records in `<output>/part-r-00000.warc.gz`
 * (the name of a one-reducer job's output). Per fetched document: a `response` record (HTTP status
 * line, headers and body; `resource` for content that did not come over HTTP), a `request` record when
 * the request was stored (`store.http.request`), and a `metadata` record with Nutch's fetch facts; one
 * `warcinfo` record opens the file. Content without a crawl_fetch datum is skipped and counted, as Nutch.
 * Reads through the Segment interface only.
 */
import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import type { NutchContext } from '../context.js';
import { count, type Counters, type StageOptions } from '../progress.js';
import type { Content } from '../../model/content.js';
import { ContentMeta } from '../../model/content.js';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import { statusName } from '../../model/crawl-datum.js';
import { packageVersion } from '../../config/package-root.js';
import { gzipRecord, newRecordId, sha1Digest, type WarcRecord } from './warc-record.js';
import { httpStatusOf, responseHead, storedRequest } from './http-message.js';

export interface WarcExportArgs {
  output: string;
  segments: string[];
}

export const WARC_FILE = 'part-r-00000.warc.gz';

export async function exportWarc(ctx: NutchContext, args: WarcExportArgs, opts: StageOptions = {}): Promise<Counters> {
  const counters: Counters = { 'records generated': 0 };
  mkdirSync(args.output, { recursive: true });
  const final = join(args.output, WARC_FILE);
  const temp = `${final}.tmp-${process.pid}`;
  const out = createWriteStream(temp);
  const write = async (r: WarcRecord) => {
    if (!out.write(gzipRecord(r))) await once(out, 'drain');
  };
  try {
    const infoId = newRecordId();
    await write(warcinfo(ctx, infoId, final));
    for (const path of args.segments) {
      if (opts.signal?.aborted) break;
      const seg = await ctx.storage.openSegment(path);
      try {
        if (!(await seg.hasPart('content'))) {
          ctx.log.warn(`warc: segment ${path} has no content, skipped`);
          count(counters, 'segments without content');
          continue;
        }
        if (!(await seg.isComplete('content'))) ctx.log.warn(`warc: content of ${path} is incomplete; exporting what it holds`);
        for await (const { url, value: content } of seg.read('content')) {
          if (opts.signal?.aborted) break;
          const datums = await seg.get('crawl_fetch', url);
          const datum = datums[datums.length - 1];
          if (!datum) {
            ctx.log.info(`warc: missing fetch datum for ${url}`);
            count(counters, 'missing metadata');
            continue;
          }
          const target = targetUri(url);
          if (!target) {
            ctx.log.warn(`warc: invalid URI ${url}, skipped`);
            count(counters, 'invalid URI');
            continue;
          }
          for (const r of documentRecords(content, datum, target, seg.name, infoId)) {
            await write(r);
            count(counters, 'records generated');
            count(counters, `${r.type} records`);
          }
        }
      } finally {
        await seg.close();
      }
    }
    out.end();
    await once(out, 'finish');
    renameSync(temp, final);
  } catch (err) {
    out.destroy();
    rmSync(temp, { force: true });
    throw err;
  }
  ctx.log.info(`warc: wrote ${counters['records generated']} records to ${final}`);
  return counters;
}

function warcinfo(ctx: NutchContext, id: string, file: string): WarcRecord {
  const fields = [
    `software: nutch-ts/${packageVersion()}`,
    'format: WARC File Format 1.1',
    'conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
    'robots: classic',
    `http-header-user-agent: ${ctx.conf.getString('http.agent.name')}`,
  ];
  return { type: 'warcinfo', id, date: new Date(), contentType: 'application/warc-fields', fields: [['WARC-Filename', file.split('/').pop()!]], block: Buffer.from(fields.join('\r\n') + '\r\n') };
}

/** WARC-Target-URI must be a valid URI: spaces escaped (as Nutch), then parsed. */
function targetUri(url: string): string | null {
  try {
    return new URL(url.replaceAll(' ', '%20')).href;
  } catch {
    return null;
  }
}

function fetchDate(content: Content, datum: CrawlDatum): Date {
  const t = Number(content.metadata[ContentMeta.FETCH_TIME]?.[0]);
  return new Date(Number.isFinite(t) && t > 0 ? t : datum.fetchTime);
}

function documentRecords(content: Content, datum: CrawlDatum, target: string, segment: string, infoId: string): WarcRecord[] {
  const date = fetchDate(content, datum);
  const responseId = newRecordId();
  const status = httpStatusOf(content);
  const common: [string, string][] = [['WARC-Warcinfo-ID', infoId]];
  const truncated = content.metadata[ContentMeta.TRUNCATED]?.[0];
  // WARC-Truncated's values are length, time, disconnect, unspecified; Nutch's reasons map onto the first two
  const truncation: [string, string][] = truncated ? [['WARC-Truncated', /^TIME$/i.test(truncated) ? 'time' : /^LENGTH$/i.test(truncated) ? 'length' : 'unspecified']] : [];
  const records: WarcRecord[] = [];
  if (status !== null) {
    records.push({
      type: 'response', id: responseId, date, targetUri: target, contentType: 'application/http;msgtype=response',
      fields: [...common, ['WARC-Payload-Digest', sha1Digest(content.content)], ...(content.contentType ? [['WARC-Identified-Payload-Type', content.contentType.split(';')[0]!.trim()] as [string, string]] : []), ...truncation],
      block: Buffer.concat([responseHead(content, status), content.content]),
    });
    const request = storedRequest(content);
    if (request) records.push({ type: 'request', date, targetUri: target, contentType: 'application/http;msgtype=request', fields: [...common, ['WARC-Concurrent-To', responseId]], block: request });
  } else {
    records.push({ type: 'resource', id: responseId, date, targetUri: target, contentType: content.contentType || 'application/octet-stream', fields: [...common, ...truncation], block: content.content });
  }
  const meta = [
    `fetchTimeMs: ${date.getTime()}`,
    `nutch-segment: ${segment}`,
    `nutch-fetch-status: ${statusName(datum.status)}`,
    `nutch-score: ${datum.score}`,
  ];
  if (datum.signature) meta.push(`nutch-signature: ${Buffer.from(datum.signature).toString('hex')}`);
  if (truncated) meta.push(`nutch-truncated: ${truncated}`);
  records.push({ type: 'metadata', date, targetUri: target, contentType: 'application/warc-fields', fields: [...common, ['WARC-Refers-To', responseId]], block: Buffer.from(meta.join('\r\n') + '\r\n') });
  return records;
}
