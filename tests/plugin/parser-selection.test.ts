/**
 * Parser selection (DESIGN §3): parse-plugins.json (exact type, aliases, the `*` fallback), then each
 * parser's contentType parameter; the result is the ordered list to try (first success wins).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectParsers, type ParsePluginsMapping } from '../../core/extension-points/parser.js';
import { fixtureContext } from '../helpers/context.js';
import { pluginFixture } from '../helpers/temp-dir.js';

const mapping: ParsePluginsMapping = {
  mimeTypes: {
    'text/html': ['parse-html', 'parse-tika'],
    'application/xhtml+xml': ['parse-html'],
    'text/plain': ['parse-text'],
    'application/x-unknown-thing': ['parse-nowhere'],
    '*': ['parse-tika'],
  },
  aliases: {
    'parse-html': 'org.apache.nutch.parse.html.HtmlParser',
    'parse-text': 'fx-parse-text',
    'parse-tika': 'org.apache.nutch.parse.tika.TikaParser',
  },
};

function candidates(t: Parameters<typeof fixtureContext>[0]) {
  return fixtureContext(t, { pluginFolders: [pluginFixture('parsers')], config: { 'plugin.includes': 'fx-parse-.*' } }).extensions.parserCandidates();
}

test('parse-plugins.json maps a content type to parsers through aliases, in the listed order', (t) => {
  const c = candidates(t);
  assert.deepEqual(selectParsers('text/html', mapping, c), ['fx-parse-html', 'fx-parse-tika']);
  assert.deepEqual(selectParsers('TEXT/HTML; charset=utf-8', mapping, c), ['fx-parse-html', 'fx-parse-tika'], 'parameters and case ignored');
  assert.deepEqual(selectParsers('text/plain', mapping, c), ['fx-parse-text']);
});

test('a type with no mapping uses each parser\'s contentType parameter (exact or regex)', (t) => {
  const c = candidates(t);
  assert.deepEqual(selectParsers('application/pdf', mapping, c), ['fx-parse-tika'], 'contentType "application/.*" is a regex');
  assert.deepEqual(selectParsers('application/xhtml+xml', null, c), ['fx-parse-html', 'fx-parse-tika'], 'without parse-plugins.json: every match, by id');
});

test('a mapping naming only unknown parsers falls back to contentType, then to "*"', (t) => {
  const c = candidates(t);
  assert.deepEqual(selectParsers('application/x-unknown-thing', mapping, c), ['fx-parse-tika']);
  assert.deepEqual(selectParsers('image/png', mapping, c), ['fx-parse-tika'], 'no mapping, no contentType match: the "*" fallback');
  assert.deepEqual(selectParsers('image/png', { mimeTypes: {} }, c), [], 'nothing at all: the caller reports NUTCH_PARSER_NOT_FOUND');
});

test('a parser referred to by its Nutch class name directly in the mapping', (t) => {
  const c = candidates(t);
  assert.deepEqual(selectParsers('text/x-custom', { mimeTypes: { 'text/x-custom': ['org.apache.nutch.parse.text.TextParser'] } }, c), ['fx-parse-text']);
  assert.deepEqual(selectParsers('text/x-custom', { mimeTypes: { 'text/*': ['fx-parse-text:p'] } }, c), ['fx-parse-text'], 'a major-type wildcard and a <plugin>:<name> alias');
});
