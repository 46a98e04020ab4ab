/**
 * Acceptance (issue 19): a conf/ directory written as for Apache Nutch 1.x — nutch-site.xml with a
 * Nutch plugin.includes (parse-(html|tika), indexer-solr) and urlfilter.order in Java class names,
 * regex-urlfilter.txt, parse-plugins.xml, index-writers.xml — used unchanged by `nutch crawl -i`
 * (only the Solr URL points at a local Solr stand-in, tests/helpers/solr-server.ts), with one warning
 * per thing nutch-ts lacks and the documents in Solr. Real child processes on the test web.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNutch, spawnNutch } from '../helpers/cli.js';
import { fixturesDir, tempDir, writeFile } from '../helpers/temp-dir.js';
import { startTestWeb } from '../web/test-web.js';
import { startFakeSolr } from '../helpers/solr-server.js';

const NUTCH_INCLUDES = 'protocol-http|urlfilter-(regex|validator)|parse-(html|tika)|index-(basic|anchor)|indexer-solr|scoring-opic|urlnormalizer-(pass|regex|basic)';

const siteXml = (extra = '') => `<?xml version="1.0"?>
<?xml-stylesheet type="text/xsl" href="configuration.xsl"?>
<!-- Put site-specific property overrides in this file. -->
<configuration>
  <property>
    <name>http.agent.name</name>
    <value>NutchConfBot</value>
  </property>
  <property>
    <name>plugin.includes</name>
    <value>${NUTCH_INCLUDES}</value>
    <description>Regular expression naming plugin directory names to include.</description>
  </property>
  <property>
    <name>urlfilter.order</name>
    <value>org.apache.nutch.urlfilter.regex.RegexURLFilter org.apache.nutch.urlfilter.validator.UrlValidator</value>
  </property>
  <property>
    <name>fetcher.server.delay</name>
    <value>0.01</value>
  </property>
  <property>
    <name>fetcher.threads.fetch</name>
    <value>4</value>
  </property>
  <property>
    <name>mapreduce.job.reduces</name>
    <value>4</value>
  </property>${extra}
</configuration>
`;

// Nutch's regex-urlfilter.txt rules, in its format.
const REGEX_URLFILTER = `# skip file: ftp: and mailto: urls
-^(?:file|ftp|mailto):

# skip image and other suffixes we can't yet parse
-(?i)\\.(?:gif|jpg|png|ico|css|sit|eps|wmf|zip|ppt|mpg|xls|gz|rpm|tgz|mov|exe|jpeg|bmp|js)$

# skip URLs containing certain characters as probable queries, etc.
-[*!@]

# skip URLs with slash-delimited segment that repeats 3+ times, to break loops
-.*(/[^/]+)/[^/]+\\1/[^/]+\\1/

# accept anything else
+.
`;

function nutchConfDir(root: string, extra = '', solrUrl?: string): string {
  const conf = join(root, 'conf');
  mkdirSync(conf, { recursive: true });
  writeFileSync(join(conf, 'nutch-site.xml'), siteXml(extra));
  writeFileSync(join(conf, 'regex-urlfilter.txt'), REGEX_URLFILTER);
  copyFileSync(join(fixturesDir, 'nutch-conf', 'parse-plugins.xml'), join(conf, 'parse-plugins.xml'));
  const writers = readFileSync(join(fixturesDir, 'nutch-conf', 'index-writers.xml'), 'utf8');
  writeFileSync(join(conf, 'index-writers.xml'), solrUrl ? writers.replace('http://localhost:8983/solr/nutch', solrUrl) : writers);
  return conf;
}

const warnings = (stderr: string) => stderr.split('\n').filter((l) => / WARN /.test(l));

test('a Nutch 1.x conf/ used unchanged by nutch crawl -i: one warning per thing nutch-ts lacks, the documents in Solr', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 5, linksPerPage: 3, seed: 7 });
  t.after(() => web.close());
  const solr = await startFakeSolr();
  t.after(() => solr.close());
  const cwd = tempDir(t);
  const conf = nutchConfDir(cwd, '', `${solr.url}/nutch`);
  mkdirSync(join(cwd, 'urls'));
  writeFileSync(join(cwd, 'urls', 'seed.txt'), web.seeds.join('\n') + '\n');

  const r = await spawnNutch(['crawl', '-i', '-s', 'urls', 'crawl', '2'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Crawl finished: 2 round\(s\)/);
  const warned = warnings(r.stderr);
  const about = (re: RegExp) => warned.filter((l) => re.test(l));
  // parse-tika and indexer-solr are nutch-ts plugins: the alternatives match them, no warning, no stand-in
  assert.equal(about(/"parse-tika"|"indexer-solr"/).length, 0, r.stderr);
  assert.equal(about(/mapreduce\.job\.reduces/).length, 1, r.stderr);
  assert.match(about(/mapreduce\.job\.reduces/)[0]!, /set in .*nutch-site\.xml:26\) is a Nutch property that nutch-ts does not support/);
  assert.equal(warned.length, 1, `no other warnings:\n${warned.join('\n')}`);
  assert.ok(r.stderr.includes('index (round 1): done'), r.stderr);

  // indexer_solr_1 of index-writers.xml sent the pages to Solr, with its mapping, and committed.
  const seed = solr.committed('nutch').get(web.seeds[1]!);
  assert.ok(seed, `the seed is in Solr: ${[...solr.committed('nutch').keys()].join(', ')}`);
  assert.equal(seed.title, 'Host 1 page 0');
  assert.equal(seed.title_copy, 'Host 1 page 0');
  assert.equal('segment' in seed, false);
  assert.ok(solr.committed('nutch').size >= 4);

  // Provenance names the XML file and the property's line.
  const p = await spawnNutch(['showproperties'], { cwd });
  assert.equal(p.code, 0, p.stderr);
  assert.match(p.stdout, new RegExp(`^http\\.agent\\.name\\tNutchConfBot\\tset in ${conf.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/nutch-site\\.xml:5$`, 'm'));
  assert.match(p.stdout, /^fetcher\.server\.delay\t0\.01\tset in .*nutch-site\.xml:18$/m);
});

test('crawl -i whose index writers cannot run fails before round 1: nothing fetched, nothing written', async (t) => {
  const cwd = tempDir(t);
  const conf = nutchConfDir(cwd);
  // Without indexer-solr in plugin.includes, no writer of Nutch's index-writers.xml has an active plugin.
  writeFileSync(join(conf, 'nutch-site.xml'), siteXml().replace('|indexer-solr', ''));
  writeFile(join(cwd, 'urls', 'seed.txt'), 'http://127.0.0.1:9/\n');
  const r = await runNutch(['crawl', '-i', '-s', 'urls', 'crawl', '1'], { cwd, env: { NUTCH_CONF_DIR: conf } });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /NUTCH_INDEX_WRITERS_INVALID: .*index-writers\.xml: none of its index writers can run: writer indexer_solr_1 \(.*index-writers\.xml:6\): plugin indexer-solr is not active/);
  assert.equal(existsSync(join(cwd, 'crawl')), false, 'no CrawlDb, no segment');
});

test('nutch convert-conf writes the JSON forms with typed values and lists every property nutch-ts does not use', async (t) => {
  const cwd = tempDir(t);
  const conf = nutchConfDir(cwd, `
  <property><name>fetcher.parse</name><value>true</value></property>
  <property><name>http.timeout</name><value>not-a-number</value></property>
  <property><name>fetcher.store.robotstxt</name><value>true</value></property>`);
  writeFileSync(join(conf, 'nutch-default.xml'), `<configuration>
  <property><name>http.content.limit</name><value>65536</value></property>
  <property><name>http.timeout</name><value>10000</value></property>
</configuration>`);
  const r = await runNutch(['convert-conf', 'conf', 'out'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  const out = join(cwd, 'out');
  const site = JSON.parse(readFileSync(join(out, 'nutch-site.json'), 'utf8'));
  assert.equal(site['http.agent.name'], 'NutchConfBot');
  assert.equal(site['fetcher.server.delay'], 0.01);
  assert.equal(site['fetcher.threads.fetch'], 4);
  assert.equal(site['fetcher.parse'], true);
  assert.deepEqual(site['urlfilter.order'], ['org.apache.nutch.urlfilter.regex.RegexURLFilter', 'org.apache.nutch.urlfilter.validator.UrlValidator']);
  assert.equal(site['http.content.limit'], 65536, 'a nutch-default.xml value that differs from nutch-ts');
  assert.equal('http.timeout' in site, false, 'an invalid value is not written; the nutch-default.xml one equals the default');
  assert.equal('mapreduce.job.reduces' in site, false);
  const unused = readFileSync(join(out, 'unsupported-properties.txt'), 'utf8');
  assert.match(unused, /^http\.timeout\tnot-a-number\t.*nutch-site\.xml:\d+\tinvalid value: expected an integer/m);
  assert.match(unused, /^fetcher\.store\.robotstxt\ttrue\t.*nutch-site\.xml:\d+\tunknown to nutch-ts/m);
  assert.match(unused, /^mapreduce\.job\.reduces\t4\t.*nutch-site\.xml:26\tnot supported by nutch-ts$/m);
  assert.match(r.stdout, /3 not used by nutch-ts:/);
  assert.match(r.stdout, /^ {2}mapreduce\.job\.reduces = "4" {2}\(.*nutch-site\.xml:26\) not supported by nutch-ts$/m);
  assert.doesNotMatch(r.stdout, /"indexer-solr" matches no plugin/, 'indexer-solr is a nutch-ts plugin');
  const writers = JSON.parse(readFileSync(join(out, 'index-writers.json'), 'utf8'));
  assert.deepEqual(writers.writers[0].mapping.remove, [{ source: 'segment' }]);
  assert.equal(writers.writers[0].extension, 'org.apache.nutch.indexwriter.solr.SolrIndexWriter');
  const parse = JSON.parse(readFileSync(join(out, 'parse-plugins.json'), 'utf8'));
  assert.deepEqual(parse.mimeTypes['application/xhtml+xml'], ['parse-tika', 'parse-html']);
  assert.equal(readFileSync(join(out, 'regex-urlfilter.txt'), 'utf8'), REGEX_URLFILTER);

  // The converted directory is a working conf directory: same values, from JSON now.
  const p = await runNutch(['showproperties'], { cwd, env: { NUTCH_CONF_DIR: out } });
  assert.equal(p.code, 0, p.stderr);
  assert.match(p.stdout, /^fetcher\.server\.delay\t0\.01\tset in .*out\/nutch-site\.json at \/fetcher\.server\.delay$/m);

  const usage = await runNutch(['convert-conf', 'conf'], { cwd });
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /Usage: nutch convert-conf <nutch-conf-dir> <out-dir>/);
  const empty = await runNutch(['convert-conf', 'urls-none', 'out2'], { cwd });
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /NUTCH_CONFIG_FILE_NOT_FOUND: .*urls-none is not a directory/);
});
