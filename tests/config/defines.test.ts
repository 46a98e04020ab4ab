/** Nutch's -D options, as Hadoop's GenericOptionsParser: `-D k=v`, `-Dk=v`, repeated; bad forms are errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractDefines } from '../../core/config/defines.js';

test('-D k=v and -Dk=v, repeated, with the rest of argv kept in order', () => {
  const { defines, rest } = extractDefines(['crawl/crawldb', '-D', 'http.agent.name=bot', '-topN', '5', '-Dfetcher.threads.fetch=4', 'seg']);
  assert.deepEqual(defines, { 'http.agent.name': 'bot', 'fetcher.threads.fetch': '4' });
  assert.deepEqual(rest, ['crawl/crawldb', '-topN', '5', 'seg']);
});

test('the value may contain "=" and be empty; a later -D for the same key wins', () => {
  const { defines } = extractDefines(['-D', 'urlfilter.regex.file=a=b.txt', '-Dhttp.agent.url=', '-D', 'x.y=1', '-D', 'x.y=2']);
  assert.deepEqual(defines, { 'urlfilter.regex.file': 'a=b.txt', 'http.agent.url': '', 'x.y': '2' });
});

for (const [argv, pattern] of [
  [['-D'], /-D needs key=value after it/],
  [['-D', 'http.agent.name'], /-D http\.agent\.name: expected key=value/],
  [['-D=bot'], /-D =bot: expected key=value/],
  [['-Dhttp.agent.name'], /-D http\.agent\.name: expected key=value/],
] as const) {
  test(`bad -D form ${JSON.stringify(argv)} is NUTCH_CONFIG_BAD_DEFINE`, () => {
    assert.throws(() => extractDefines(argv), (err: any) => err.code === 'NUTCH_CONFIG_BAD_DEFINE' && pattern.test(err.message));
  });
}
