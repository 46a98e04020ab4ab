/** language-identifier: the cases Nutch's TestHTMLLanguageParser and TestLanguageIndexingFilter imply, then a real crawl. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createContent, createDocument, createParseData, type IndexingFilter } from '../../sdk/plugin.js';
import { ParseUtil } from '../../core/parse/parse-util.js';
import { fixtureContext } from '../../tests/helpers/context.js';
import { indexCrawl } from '../../tests/helpers/index-crawl.js';
import { parseLanguage } from './index.js';

const ENGLISH = 'The harbour master keeps a careful record of every ship that enters the port, and the weather of each day is written beside it.';
const FRENCH = 'Le capitaine du port tient un registre soigneux de chaque navire qui entre dans le port, et le temps de chaque jour est noté à côté.';
const GERMAN = 'Der Hafenmeister führt ein sorgfältiges Verzeichnis aller Schiffe, die in den Hafen einlaufen, und das Wetter jedes Tages wird daneben notiert.';

test('language-identifier: parseLanguage reads stated values as Nutch\'s LanguageParser', () => {
  const cases: [string | undefined, string | null][] = [
    ['en', 'en'], ['en-GB', 'en'], ['de_DE', 'de'], ['FR', 'fr'], ['fr, en', 'fr'], ['x-klingon, es', 'es'], ['eng', 'en'], ['ger', 'de'], ['fre', 'fr'],
    ['(nl)', 'nl'], ['zz', null], ['', null], [undefined, null],
  ];
  for (const [value, expected] of cases) assert.equal(parseLanguage(value), expected, String(value));
});

async function languageOf(t: TestContext, html: string, defines: Record<string, string> = {}, headers: Record<string, string[]> = {}): Promise<string | undefined> {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'parse-html|language-identifier', ...defines } });
  const util = await ParseUtil.create(ctx.extensions, ctx.conf, ctx.log);
  const url = 'http://example.com/page.html';
  const out = await util.parse(createContent({ url, content: new TextEncoder().encode(html), contentType: 'text/html', metadata: headers }));
  return out.result.parses[url]!.data.parseMeta.language?.[0];
}

test('language-identifier: detect, then identify (lang.extraction.policy), through parse-html\'s filter chain', async (t) => {
  const cases: { name: string; html: string; defines?: Record<string, string>; headers?: Record<string, string[]>; expected: string | undefined }[] = [
    { name: 'html lang attribute', html: `<html lang="fr-CA"><body>${ENGLISH}</body></html>`, expected: 'fr' },
    { name: 'first lang attribute below html', html: `<html><body><div lang="nl">${ENGLISH}</div></body></html>`, expected: 'nl' },
    { name: 'dc.language meta', html: `<html><head><meta name="DC.Language" content="es"></head><body>${ENGLISH}</body></html>`, expected: 'es' },
    { name: 'http-equiv Content-Language', html: `<html><head><meta http-equiv="Content-Language" content="it"></head><body>${ENGLISH}</body></html>`, expected: 'it' },
    { name: 'html lang beats dc.language and http-equiv', html: `<html lang="pt"><head><meta name="dc.language" content="es"><meta http-equiv="content-language" content="it"></head><body>x</body></html>`, expected: 'pt' },
    { name: 'Content-Language header', html: `<html><body>${ENGLISH}</body></html>`, headers: { 'Content-Language': ['da'] }, expected: 'da' },
    { name: 'no clue: identified English', html: `<html><body>${ENGLISH}</body></html>`, expected: 'en' },
    { name: 'no clue: identified German', html: `<html><body>${GERMAN}</body></html>`, expected: 'de' },
    { name: 'a stated value that is no language: identified', html: `<html lang="x-pig-latin"><body>${FRENCH}</body></html>`, expected: 'fr' },
    { name: 'identify,detect: the text wins', html: `<html lang="es"><body>${GERMAN}</body></html>`, defines: { 'lang.extraction.policy': 'identify,detect' }, expected: 'de' },
    { name: 'detect only: nothing stated, nothing stored', html: `<html><body>${GERMAN}</body></html>`, defines: { 'lang.extraction.policy': 'detect' }, expected: undefined },
    { name: 'identify only: the stated value is ignored', html: `<html lang="es"><body>${ENGLISH}</body></html>`, defines: { 'lang.extraction.policy': 'identify' }, expected: 'en' },
    { name: 'too little text to identify', html: '<html><body>ok</body></html>', expected: undefined },
    { name: 'only.certain: a short text is not certain', html: '<html><body>Der Hafen ist groß.</body></html>', defines: { 'lang.identification.only.certain': 'true', 'lang.extraction.policy': 'identify' }, expected: undefined },
    { name: 'only.certain: a clear text is', html: `<html><body>${GERMAN}</body></html>`, defines: { 'lang.identification.only.certain': 'true' }, expected: 'de' },
  ];
  for (const c of cases) assert.equal(await languageOf(t, c.html, c.defines, c.headers), c.expected, c.name);
});

test('language-identifier: the indexing filter adds lang, falls back as Nutch, and honours lang.index.languages', async (t) => {
  const filterWith = async (defines: Record<string, string>) => {
    const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'language-identifier', ...defines } });
    return ctx.plugins.getInstance<IndexingFilter>(ctx.plugins.findExtension('IndexingFilter', 'org.apache.nutch.analysis.lang.LanguageIndexingFilter')!);
  };
  const run = async (f: IndexingFilter, parseMeta: Record<string, string[]>, contentMeta: Record<string, string[]> = {}, text = '') => {
    const parse = { text, data: createParseData({ parseMeta, contentMeta }), isCanonical: true };
    const doc = await f.filter(createDocument(), { url: 'http://example.com/', parse, dbDatum: null, fetchDatum: null, inlinks: null });
    return doc === null ? null : doc.fields.lang;
  };
  const all = await filterWith({});
  assert.deepEqual(await run(all, { language: ['fr'] }), ['fr'], 'from the parse filter');
  assert.deepEqual(await run(all, {}, { 'content-language': ['de-AT'] }), ['de'], 'the Content-Language header');
  assert.deepEqual(await run(all, { 'dc:language': ['en-US'] }), ['en'], "a document's dc:language (parse-tika)");
  assert.deepEqual(await run(all, {}, {}, GERMAN), ['de'], 'a document without clues: identified from its text');
  assert.deepEqual(await run(all, {}), ['unknown']);
  const only = await filterWith({ 'lang.index.languages': 'en,unknown' });
  assert.deepEqual(await run(only, { language: ['en'] }), ['en']);
  assert.equal(await run(only, { language: ['fr'] }), null, 'not an indexed language: dropped');
  assert.deepEqual(await run(only, {}), ['unknown'], "'unknown' is a language code here");
});

test('language-identifier in a real crawl: lang fields, and lang.index.languages keeps only English and German', async (t) => {
  const page = (body: string, lang = '') => ({ contentType: 'text/html', body: `<html${lang}><head><title>Harbour</title></head><body><p>${body}</p></body></html>` });
  const { web, docs, crawl } = await indexCrawl(t, {
    files: { '/en.html': page(ENGLISH), '/fr.html': page(ENGLISH, ' lang="fr"'), '/de.html': page(GERMAN) },
    seeds: (w) => ['/en.html', '/fr.html', '/de.html'].map((p) => w.url(0, p)),
    plugins: 'language-identifier',
    site: { 'lang.index.languages': 'en,de' },
  });
  assert.deepEqual(docs.get(web.url(0, '/en.html'))?.fields.lang, ['en']);
  assert.deepEqual(docs.get(web.url(0, '/de.html'))?.fields.lang, ['de']);
  assert.equal(docs.get(web.url(0, '/fr.html')), undefined, 'stated French, not indexed');
  assert.match(crawl.stdout, /skipped \(IndexingFilter\)=1\b/, crawl.stdout);
});
