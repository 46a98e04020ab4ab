/** Nutch's parse-plugins.xml read as it is, beside parse-plugins.json. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseParsePluginsXml } from '../../core/parse/parse-plugins-xml.js';
import { loadParsePlugins } from '../../core/parse/parse-plugins.js';
import { selectParsers } from '../../core/extension-points/parser.js';
import { loadConfiguration } from '../../core/config/load-configuration.js';
import { fixturesDir, tempDir, writeFile } from '../helpers/temp-dir.js';

const NUTCH_XML = join(fixturesDir, 'nutch-conf', 'parse-plugins.xml');

test('parse-plugins.xml: mimeType lists in order (the order attribute first), aliases', () => {
  const mapping = parseParsePluginsXml(readFileSync(NUTCH_XML, 'utf8'), NUTCH_XML);
  assert.deepEqual(mapping.mimeTypes, {
    '*': ['parse-tika'],
    'text/html': ['parse-html'],
    'application/xhtml+xml': ['parse-tika', 'parse-html'],
    'application/rss+xml': ['parse-tika', 'feed'],
  });
  assert.equal(mapping.aliases?.['parse-html'], 'org.apache.nutch.parse.html.HtmlParser');
  const candidates = [
    { extensionId: 'parse-html', aliases: ['org.apache.nutch.parse.html.HtmlParser'], contentTypes: ['text/html'] },
    { extensionId: 'parse-text', aliases: [], contentTypes: ['text/plain'] },
  ];
  assert.deepEqual(selectParsers('application/xhtml+xml', mapping, candidates), ['parse-html'], 'parse-tika is missing: the next parser of the list');
  assert.deepEqual(selectParsers('text/plain', mapping, candidates), ['parse-text'], 'a type whose list names no active parser goes to the contentType parameters');
});

test('a conf directory with parse-plugins.xml and no parse-plugins.json: the XML is used; a JSON beside it wins', (t) => {
  const dir = tempDir(t);
  copyFileSync(NUTCH_XML, join(dir, 'parse-plugins.xml'));
  const conf = loadConfiguration({ cwd: dir, env: { NUTCH_CONF_DIR: dir } });
  assert.deepEqual(loadParsePlugins(conf).mimeTypes['text/html'], ['parse-html']);
  assert.deepEqual(loadParsePlugins(conf).mimeTypes['*'], ['parse-tika']);
  writeFile(join(dir, 'parse-plugins.json'), { mimeTypes: { '*': ['parse-text'] } });
  assert.deepEqual(loadParsePlugins(conf).mimeTypes['*'], ['parse-text']);
});

for (const [why, xml, line, reason] of [
  ['a mimeType without name', '<parse-plugins>\n<mimeType>\n<plugin id="a"/></mimeType></parse-plugins>', 2, /<mimeType> needs a name attribute/],
  ['a plugin without id', '<parse-plugins>\n<mimeType name="a/b">\n\n<plugin/></mimeType></parse-plugins>', 4, /<plugin> needs an id attribute/],
  ['an alias without extension-id', '<parse-plugins><aliases>\n<alias name="x"/></aliases></parse-plugins>', 2, /needs name and extension-id/],
  ['a bad order', '<parse-plugins><mimeType name="a/b">\n<plugin id="x" order="first"/></mimeType></parse-plugins>', 2, /order="first" is not a number/],
] as const) {
  test(`parse-plugins.xml: ${why} is NUTCH_PARSE_PLUGINS_INVALID with file and line`, () => {
    assert.throws(() => parseParsePluginsXml(xml, '/c/parse-plugins.xml'), (e: { code: string; message: string }) =>
      e.code === 'NUTCH_PARSE_PLUGINS_INVALID' && e.message.startsWith(`/c/parse-plugins.xml:${line}: `) && reason.test(e.message));
  });
}
