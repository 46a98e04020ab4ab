/**
 * Hostile input (issue 18): HTML in UTF-16 without a BOM, and HTML with NUL bytes, used to be dropped as
 * "binary" and never indexed. Through the real CLI against a local server: `nutch crawl -i` fetches,
 * parses and indexes them — whether the server calls them text/html or sends no Content-Type at all —
 * and `nutch search` finds their words, with no NUL left in the text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNutch } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestWeb } from '../web/test-web.js';

const page = (title: string, words: string) => `<html><head><title>${title}</title></head><body><p>${words} text</p></body></html>`;
const utf16 = (html: string, bigEndian: boolean) => (bigEndian ? Buffer.from(html, 'utf16le').swap16() : Buffer.from(html, 'utf16le'));
const nul = (html: string) => Buffer.from(html.replace('<body>', '<body>\0\0\0').replace(' text', '\0 text') + '\0'.repeat(300), 'latin1');

test('nutch crawl -i: UTF-16 HTML without a BOM and HTML with NUL bytes are parsed and indexed, with or without a Content-Type', async (t) => {
  const files = {
    '/le.html': { contentType: 'text/html', body: utf16(page('Little endian', 'quokka'), false) },
    '/be.html': { contentType: null, body: utf16(page('Big endian', 'numbat'), true) },
    '/nul.html': { contentType: 'text/html', body: nul(page('Nul bytes', 'wombat')) },
    '/nul-untyped.html': { contentType: null, body: nul(page('Nul untyped', 'bilby')) },
  };
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 1, linksPerPage: 0, files });
  t.after(() => web.close());
  const cwd = tempDir(t);
  writeFileSync(join(cwd, 'seeds.txt'), Object.keys(files).map((p) => web.url(0, p)).join('\n') + '\n');
  const crawl = await runNutch(['crawl', '-D', 'http.agent.name=wide', '-D', 'fetcher.server.delay=0', '-i', '-s', join(cwd, 'seeds.txt'), join(cwd, 'crawl'), '1'], { cwd });
  assert.equal(crawl.code, 0, crawl.stderr);
  for (const [path, title, word] of [['/le.html', 'Little endian', 'quokka'], ['/be.html', 'Big endian', 'numbat'], ['/nul.html', 'Nul bytes', 'wombat'], ['/nul-untyped.html', 'Nul untyped', 'bilby']]) {
    const r = await runNutch(['search', join(cwd, 'crawl'), word, '-json'], { cwd });
    assert.equal(r.code, 0, r.stderr);
    const hits = r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { url: string; title: string; snippet: string });
    assert.deepEqual(hits.map((h) => [h.url, h.title]), [[web.url(0, path!), title]], `${path}: indexed and found by "${word}"`);
    assert.doesNotMatch(hits[0]!.snippet, /\0/, `${path}: no NUL in the indexed text`);
  }
});
