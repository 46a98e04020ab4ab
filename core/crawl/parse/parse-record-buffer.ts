/**
 * The parse records waiting to be appended to parse_text, parse_data and crawl_parse — shared by the
 * parse stage and the fetcher's inline parse. A batch is full at storage.batch.size pages, ten times
 * that many crawl_parse records, or PARSE_TEXT_BATCH_CHARS of page text, whichever comes first: page
 * texts are the big records, and a thousand 30 KB pages held for one batch would keep 30 MB alive
 * (and promoted to the old generation) for nothing.
 */
import type { Keyed, SegmentPartWriter } from '../../storage/interfaces.js';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { ParseData, ParseText } from '../../model/parse.js';
import type { ParseOutputRecords } from './parse-output.js';

export const PARSE_TEXT_BATCH_CHARS = 2 * 1024 * 1024;

export interface ParseWriters {
  text: SegmentPartWriter<ParseText>;
  data: SegmentPartWriter<ParseData>;
  crawl: SegmentPartWriter<CrawlDatum>;
}

export class ParseRecordBuffer {
  private text: Keyed<ParseText>[] = [];
  private data: Keyed<ParseData>[] = [];
  private crawl: Keyed<CrawlDatum>[] = [];
  private textChars = 0;

  constructor(private readonly batchSize: number) {}

  /** Adds one page's records; true when the batch is full and should be flushed. */
  add(records: ParseOutputRecords): boolean {
    for (const r of records.parseText) {
      this.text.push(r);
      this.textChars += r.value.text.length;
    }
    for (const r of records.parseData) this.data.push(r);
    for (const r of records.crawlParse) this.crawl.push(r);
    return this.data.length >= this.batchSize || this.crawl.length >= this.batchSize * 10 || this.textChars >= PARSE_TEXT_BATCH_CHARS;
  }

  /** Takes the buffered records and appends them, text, then data, then crawl_parse. */
  flushTo(writers: ParseWriters): Promise<void> {
    const { text, data, crawl } = this;
    this.text = [];
    this.data = [];
    this.crawl = [];
    this.textChars = 0;
    return (async () => {
      if (text.length) await writers.text.append(text);
      if (data.length) await writers.data.append(data);
      if (crawl.length) await writers.crawl.append(crawl);
    })();
  }
}
