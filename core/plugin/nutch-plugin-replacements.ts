/**
 * What to use instead of an Apache Nutch 1.x plugin that nutch-ts does not have. Consulted only when
 * a name matches no discovered plugin (an alternative of plugin.includes, a Nutch class name in an
 * order list or index-writers file), so a plugin added later under one of these ids — a parse-tika or
 * an indexer-solr from npm — simply wins and its row is never read.
 *
 * `activate`: nutch-ts plugins that stand in for it (activated as if plugin.includes named them, when
 * they exist) because they do the same job for the same configuration — a Nutch plugin.includes
 * then still fetches, parses and indexes. Without `activate`, the row only advises.
 */
export interface NutchPluginReplacement {
  /** Nutch's plugin id, or a pattern for a family (lib-*). */
  id: string | RegExp;
  /** Java package of the plugin's extensions (their Nutch class names start with it). */
  javaPackage?: string;
  activate?: string[];
  advice: string;
}

const rows: NutchPluginReplacement[] = [
  // Protocols
  { id: 'protocol-httpclient', javaPackage: 'org.apache.nutch.protocol.httpclient', activate: ['protocol-http'], advice: 'protocol-http fetches HTTP and HTTPS in its place' },
  { id: 'protocol-okhttp', javaPackage: 'org.apache.nutch.protocol.okhttp', activate: ['protocol-http'], advice: 'protocol-http does its job (it also answers to org.apache.nutch.protocol.okhttp.OkHttp)' },
  { id: 'protocol-selenium', javaPackage: 'org.apache.nutch.protocol.selenium', activate: ['protocol-playwright'], advice: 'protocol-playwright renders pages in headless Chromium (playwright.* properties; the selenium.* / htmlunit.* ones are not read)' },
  { id: 'protocol-interactiveselenium', javaPackage: 'org.apache.nutch.protocol.interactiveselenium', activate: ['protocol-playwright'], advice: 'protocol-playwright renders pages in headless Chromium (playwright.* properties; the selenium.* / htmlunit.* ones are not read)' },
  { id: 'protocol-htmlunit', javaPackage: 'org.apache.nutch.protocol.htmlunit', activate: ['protocol-playwright'], advice: 'protocol-playwright renders pages in headless Chromium (playwright.* properties; the selenium.* / htmlunit.* ones are not read)' },
  { id: 'protocol-ftp', javaPackage: 'org.apache.nutch.protocol.ftp', advice: 'FTP is not supported; protocol-http and protocol-file are' },
  { id: 'protocol-smb', javaPackage: 'org.apache.nutch.protocol.smb', advice: 'SMB is not supported; mount the share and use protocol-file' },
  { id: 'protocol-foo', javaPackage: 'org.apache.nutch.protocol.foo', advice: 'an example plugin of Nutch; see docs/plugins.md to write a Protocol' },
  // Parsers
  { id: 'parse-tika', javaPackage: 'org.apache.nutch.parse.tika', activate: ['parse-html', 'parse-text'], advice: 'parse-html parses HTML and XHTML, parse-text plain text; other formats (PDF, Office, …) are not parsed' },
  { id: 'parse-js', javaPackage: 'org.apache.nutch.parse.js', advice: 'JavaScript is not parsed for links; parse-html reads the HTML' },
  { id: 'parse-swf', javaPackage: 'org.apache.nutch.parse.swf', advice: 'Flash is not parsed' },
  { id: 'parse-zip', javaPackage: 'org.apache.nutch.parse.zip', advice: 'archives are not parsed' },
  { id: 'parse-ext', javaPackage: 'org.apache.nutch.parse.ext', advice: 'external parser commands are not supported; write a Parser plugin (docs/plugins.md)' },
  { id: 'feed', javaPackage: 'org.apache.nutch.parse.feed', advice: 'RSS/Atom feeds are not parsed' },
  { id: 'creativecommons', javaPackage: 'org.creativecommons.nutch', advice: 'not available' },
  { id: 'microformats-reltag', javaPackage: 'org.apache.nutch.microformats.reltag', advice: 'not available' },
  // Indexing
  { id: 'indexer-elastic-rest', javaPackage: 'org.apache.nutch.indexwriter.elasticrest', advice: 'use indexer-elastic (it speaks the Elasticsearch REST API)' },
  { id: 'indexer-opensearch-1x', javaPackage: 'org.apache.nutch.indexwriter.opensearch1x', activate: ['indexer-opensearch'], advice: 'indexer-opensearch sends documents to OpenSearch in its place (it also answers to its class name)' },
  { id: 'indexer-cloudsearch', javaPackage: 'org.apache.nutch.indexwriter.cloudsearch', advice: 'not available; indexer-jsonl writes documents for a bulk upload' },
  { id: 'indexer-rabbit', javaPackage: 'org.apache.nutch.indexwriter.rabbit', advice: 'not available; indexer-jsonl writes documents a shipper can forward' },
  { id: 'indexer-kafka', javaPackage: 'org.apache.nutch.indexwriter.kafka', advice: 'not available; indexer-jsonl writes documents a shipper can forward' },
  { id: 'index-geoip', javaPackage: 'org.apache.nutch.indexer.geoip', advice: 'not available' },
  { id: 'index-jexl-filter', javaPackage: 'org.apache.nutch.indexer.jexl', advice: 'write an IndexingFilter plugin (docs/plugins.md)' },
  { id: 'tld', javaPackage: 'org.apache.nutch.indexer.tld', advice: 'not available' },
  // URL filters and normalizers
  // Scoring
  { id: 'scoring-link', javaPackage: 'org.apache.nutch.scoring.link', advice: 'LinkRank (webgraph) is not available; scoring-opic scores pages' },
  { id: 'scoring-similarity', javaPackage: 'org.apache.nutch.scoring.similarity', advice: 'not available' },
  { id: 'scoring-metadata', javaPackage: 'org.apache.nutch.scoring.metadata', advice: 'not available' },
  // Other
  { id: 'publish-rabbitmq', javaPackage: 'org.apache.nutch.publisher.rabbitmq', advice: 'not available' },
  { id: 'exchange-jexl', javaPackage: 'org.apache.nutch.exchange.jexl', advice: 'not available' },
  { id: 'nutch-extensionpoints', advice: 'not needed: the extension points are part of nutch-ts core' },
  { id: /^lib-/, advice: 'not needed: libraries are npm dependencies of the plugins that use them' },
];

export const nutchPluginReplacements: readonly NutchPluginReplacement[] = rows;

/** The row for a Nutch plugin id (or an alternative of plugin.includes written as one). */
export function replacementForPlugin(id: string): NutchPluginReplacement | undefined {
  return rows.find((r) => (typeof r.id === 'string' ? r.id === id : r.id.test(id)));
}

/** The row whose plugin a Nutch class name (org.apache.nutch.indexwriter.solr.SolrIndexWriter) belongs to. */
export function replacementForClass(className: string): NutchPluginReplacement | undefined {
  return rows.find((r) => r.javaPackage && className.startsWith(r.javaPackage + '.'));
}

export function replacementName(r: NutchPluginReplacement): string {
  return typeof r.id === 'string' ? r.id : 'lib-*';
}
