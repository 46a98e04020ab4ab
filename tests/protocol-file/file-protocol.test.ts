import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fixtureContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { createCrawlDatum, CrawlStatus, ContentMeta, protocolStatusName } from '../../core/model/index.js';

async function file(t: Parameters<typeof fixtureContext>[0], defines: Record<string, string> = {}) {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'protocol-file', ...defines } });
  return ctx.extensions.protocolFactory().getProtocol('file:///');
}
const datum = (init = {}) => createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED, ...init });

function tree(t: Parameters<typeof tempDir>[0]): string {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'a.html'), '<html><title>A</title></html>');
  writeFileSync(join(dir, 'b & c.txt'), 'x'.repeat(5000));
  writeFileSync(join(dir, 'sub', 'd.pdf'), '%PDF');
  symlinkSync(join(dir, 'a.html'), join(dir, 'link.html'));
  return dir;
}

test('protocol-file: files, content types, limit', async (t) => {
  const dir = tree(t);
  const p = await file(t, { 'file.content.limit': '1000' });
  const a = await p.getProtocolOutput(pathToFileURL(join(dir, 'a.html')).href, datum());
  assert.equal(protocolStatusName(a.status.code), 'SUCCESS');
  assert.equal(a.content!.contentType, 'text/html');
  assert.equal(Buffer.from(a.content!.content).toString(), '<html><title>A</title></html>');
  const b = await p.getProtocolOutput(pathToFileURL(join(dir, 'b & c.txt')).href, datum());
  assert.equal(b.content!.content.length, 1000);
  assert.deepEqual(b.content!.metadata[ContentMeta.TRUNCATED], ['LENGTH']);
  assert.equal(b.content!.contentType, 'text/plain');
  const missing = await p.getProtocolOutput(pathToFileURL(join(dir, 'nope')).href, datum());
  assert.equal(protocolStatusName(missing.status.code), 'NOTFOUND');
  const rules = await p.getRobotRules!('file:///x', null);
  assert.equal(rules.isAllowed('file:///x'), true);
});

test('protocol-file: directories as Nutch\'s HTML listing', async (t) => {
  const dir = tree(t);
  const p = await file(t);
  const out = await p.getProtocolOutput(pathToFileURL(dir).href + '/', datum());
  const html = Buffer.from(out.content!.content).toString();
  assert.equal(out.content!.contentType, 'text/html');
  assert.match(html, new RegExp(`<title>Index of ${dir}/</title>`));
  assert.match(html, /<a href="\.\.\/">\.\.\/<\/a>/);
  assert.match(html, /<a href="a\.html">a\.html<\/a>/);
  assert.match(html, /<a href="b%20%26%20c\.txt">b &amp; c\.txt<\/a>/);
  assert.match(html, /<a href="sub\/">sub\/<\/a>/);
  const noParent = await file(t, { 'file.crawl.parent': 'false' });
  assert.doesNotMatch(Buffer.from((await noParent.getProtocolOutput(pathToFileURL(dir).href + '/', datum())).content!.content).toString(), /\.\.\//);
});

test('protocol-file: symlinks redirect to the canonical path; unchanged files are NOTMODIFIED', async (t) => {
  const dir = tree(t);
  const p = await file(t);
  const link = await p.getProtocolOutput(pathToFileURL(join(dir, 'link.html')).href, datum());
  assert.equal(protocolStatusName(link.status.code), 'MOVED');
  assert.equal(link.status.args[0], pathToFileURL(join(dir, 'a.html')).href);
  utimesSync(join(dir, 'a.html'), new Date(2020, 0, 1), new Date(2020, 0, 1));
  const nm = await p.getProtocolOutput(pathToFileURL(join(dir, 'a.html')).href, datum({ modifiedTime: Date.now() }));
  assert.equal(protocolStatusName(nm.status.code), 'NOTMODIFIED');
});
