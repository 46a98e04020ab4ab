/** Nutch's own nutch-site.xml / nutch-default.xml, read as they are, in the same lookup as nutch-site.json. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadConfiguration } from '../../core/config/load-configuration.js';
import { describeSource } from '../../core/config/configuration.js';
import { readXml } from '../../core/config/xml-reader.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';

const SITE_XML = `<?xml version="1.0"?>
<?xml-stylesheet type="text/xsl" href="configuration.xsl"?>
<!-- Put site-specific property overrides in this file. -->
<configuration xmlns:xi="http://www.w3.org/2001/XInclude">
  <property>
    <name>http.agent.name</name>
    <value>Xml &amp; Bot</value>
    <description>the agent</description>
  </property>
  <property>
    <name>fetcher.server.delay</name>
    <value> 2.5 </value>
  </property>
  <property><name>urlfilter.order</name><value>org.apache.nutch.urlfilter.regex.RegexURLFilter
    org.apache.nutch.urlfilter.validator.UrlValidator</value></property>
  <property name="http.timeout" value="2000"/>
  <property>
    <name>fetcher.parse</name>
    <value><![CDATA[true]]></value>
    <final>true</final>
  </property>
</configuration>
`;

test('nutch-site.xml is read as Nutch writes it: values typed by their declarations, provenance names file and line', (t) => {
  const dir = tempDir(t);
  const file = writeFile(join(dir, 'nutch-site.xml'), SITE_XML);
  const conf = loadConfiguration({ cwd: dir, env: { NUTCH_CONF_DIR: dir } });
  assert.deepEqual(conf.validate(), []);
  assert.equal(conf.getString('http.agent.name'), 'Xml & Bot');
  assert.equal(conf.get('fetcher.server.delay'), 2.5);
  assert.deepEqual(conf.getStrings('urlfilter.order'), ['org.apache.nutch.urlfilter.regex.RegexURLFilter', 'org.apache.nutch.urlfilter.validator.UrlValidator']);
  assert.equal(conf.get('http.timeout'), 2000);
  assert.equal(conf.get('fetcher.parse'), true);
  assert.deepEqual(conf.sourceOf('http.agent.name'), { layer: 'site', source: file, line: 5 });
  assert.equal(describeSource(conf.sourceOf('fetcher.server.delay')!), `set in ${file}:10`);
  assert.equal(conf.sourceOf('http.timeout')?.line, 16);
});

test('./conf/nutch-site.xml is found by the same lookup as nutch-site.json', (t) => {
  const cwd = tempDir(t);
  const file = writeFile(join(cwd, 'conf', 'nutch-site.xml'), '<configuration><property><name>http.agent.name</name><value>looked-up</value></property></configuration>');
  const conf = loadConfiguration({ cwd, env: {} });
  assert.equal(conf.getString('http.agent.name'), 'looked-up');
  assert.equal(conf.sourceOf('http.agent.name')?.source, file);
});

test('XInclude is not followed: a warning names the file and line', (t) => {
  const dir = tempDir(t);
  writeFile(join(dir, 'nutch-site.xml'), `<configuration xmlns:xi="http://www.w3.org/2001/XInclude">
  <xi:include href="more-site.xml"/>
  <property><name>http.agent.name</name><value>x</value></property>
</configuration>`);
  const warnings: string[] = [];
  const conf = loadConfiguration({ cwd: dir, env: { NUTCH_CONF_DIR: dir }, warn: (m) => warnings.push(m) });
  assert.equal(conf.getString('http.agent.name'), 'x');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /nutch-site\.xml:2: <xi:include href="more-site\.xml"> is ignored: nutch-ts does not follow XInclude/);
});

test('nutch-site.xml and nutch-site.json side by side: both read, the JSON value wins, one warning names both', (t) => {
  const dir = tempDir(t);
  writeFile(join(dir, 'nutch-site.xml'), `<configuration>
  <property><name>http.agent.name</name><value>from-xml</value></property>
  <property><name>http.timeout</name><value>1500</value></property>
</configuration>`);
  const json = writeFile(join(dir, 'nutch-site.json'), { 'http.agent.name': 'from-json' });
  const warnings: string[] = [];
  const conf = loadConfiguration({ cwd: dir, env: { NUTCH_CONF_DIR: dir }, warn: (m) => warnings.push(m) });
  assert.equal(conf.getString('http.agent.name'), 'from-json');
  assert.equal(conf.sourceOf('http.agent.name')?.source, json);
  assert.equal(conf.getInt('http.timeout'), 1500, 'a property only in the XML file still applies');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /Both .*nutch-site\.xml and nutch-site\.json exist: both are read, and a property set in both takes the value of nutch-site\.json/);
});

test('nutch-default.xml overrides the shipped defaults; its properties nutch-ts lacks give one summary warning, nutch-site.xml still wins', (t) => {
  const dir = tempDir(t);
  const defaults = writeFile(join(dir, 'nutch-default.xml'), `<configuration>
  <property><name>http.timeout</name><value>7000</value></property>
  <property><name>http.content.limit</name><value>1024</value></property>
  <property><name>mapreduce.job.reduces</name><value>2</value></property>
  <property><name>fetcher.store.robotstxt</name><value>false</value></property>
  <property><name>lang.analyze.max.length</name><value>2048</value></property>
</configuration>`);
  writeFile(join(dir, 'nutch-site.xml'), '<configuration><property><name>http.timeout</name><value>3000</value></property></configuration>');
  const conf = loadConfiguration({ cwd: dir, env: { NUTCH_CONF_DIR: dir } });
  assert.equal(conf.getInt('http.timeout'), 3000);
  assert.equal(conf.getInt('http.content.limit'), 1024);
  assert.equal(describeSource(conf.sourceOf('http.content.limit')!), `set in ${defaults}:3`);
  const warnings = conf.validate().map((w) => w.message);
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0]!, /nutch-default\.xml: 3 of its properties are not used by nutch-ts .*nutch convert-conf/);
});

test('a wrong value in nutch-site.xml is an error naming the property, the file and the line', (t) => {
  const dir = tempDir(t);
  writeFile(join(dir, 'nutch-site.xml'), `<configuration>

  <property><name>http.timeout</name><value>soon</value></property>
</configuration>`);
  const conf = loadConfiguration({ cwd: dir, env: { NUTCH_CONF_DIR: dir } });
  assert.throws(() => conf.validate(), (err: any) =>
    err.code === 'NUTCH_CONFIG_INVALID_VALUE' && /"http\.timeout" \(set in .*nutch-site\.xml:3\): expected an integer/.test(err.message) && err.details.line === 3);
});

for (const [why, text, line, reason] of [
  ['a mismatched closing tag', '<configuration>\n <property>\n  <name>a</value>\n </property>\n</configuration>', 3, /closing tag <\/value> does not match <name> opened on line 3/],
  ['an element never closed', '<configuration>\n <property>\n  <name>a</name>\n', 2, /<property> opened on line 2 is never closed/],
  ['a bare ampersand', '<configuration>\n<property><name>a</name>\n<value>x & y</value></property></configuration>', 3, /bare "&"/],
  ['an unquoted attribute', '<configuration>\n\n<property name=a value="b"/></configuration>', 3, /must be quoted/],
  ['a second root', '<configuration/>\n<configuration/>', 2, /second root element/],
] as const) {
  test(`malformed nutch-site.xml (${why}) is NUTCH_CONFIG_INVALID_XML with file and line`, (t) => {
    const dir = tempDir(t);
    const file = writeFile(join(dir, 'nutch-site.xml'), text);
    assert.throws(() => loadConfiguration({ cwd: dir, env: { NUTCH_CONF_DIR: dir } }), (err: any) => {
      assert.equal(err.code, 'NUTCH_CONFIG_INVALID_XML');
      assert.ok(err.message.startsWith(`${file}:${line}: malformed XML: `), err.message);
      assert.match(err.message, reason);
      return true;
    });
  });
}

test('a file that is XML but not a Nutch configuration says what it expected', (t) => {
  const dir = tempDir(t);
  writeFile(join(dir, 'nutch-site.xml'), '<configuration>\n<property><value>v</value></property>\n<property><name>a</name><valeu>v</valeu></property></configuration>');
  assert.throws(() => loadConfiguration({ cwd: dir, env: { NUTCH_CONF_DIR: dir } }), (err: any) => err.code === 'NUTCH_CONFIG_INVALID_XML' && /nutch-site\.xml:2: <property> has no <name>/.test(err.message));
  writeFile(join(dir, 'nutch-site.xml'), '<?xml version="1.0"?>\n<props/>');
  assert.throws(() => loadConfiguration({ cwd: dir, env: { NUTCH_CONF_DIR: dir } }), (err: any) => err.code === 'NUTCH_CONFIG_INVALID_XML' && /nutch-site\.xml:2: the root element is <props>/.test(err.message));
});

test('the XML reader: attributes, entities, character references, comments, CDATA, lines', () => {
  const root = readXml(`<?xml version="1.0"?>\n<!DOCTYPE a>\n<a x='1' y="&lt;&#65;&#x42;">\n<!-- <b> -->\n<b>t<![CDATA[<&>]]></b>\n<c/></a>`, 'f.xml');
  assert.equal(root.name, 'a');
  assert.deepEqual(root.attributes, { x: '1', y: '<AB' });
  assert.equal(root.line, 3);
  assert.deepEqual(root.children.map((c) => [c.name, c.line, c.text]), [['b', 5, 't<&>'], ['c', 6, '']]);
});

test('the XML reader: an attribute named like an Object.prototype member (constructor, toString) is an attribute like any other', () => {
  const root = readXml('<a constructor="c" toString="t" __proto__="p"/>', 'f.xml');
  assert.equal(root.attributes.constructor, 'c');
  assert.equal(root.attributes.toString, 't');
  assert.throws(() => readXml('<a constructor="c" constructor="d"/>', 'f.xml'), /attribute constructor appears twice on <a>/);
});
