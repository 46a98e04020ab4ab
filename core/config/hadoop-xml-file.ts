/**
 * Reads Nutch's own configuration files as they are — nutch-site.xml and nutch-default.xml, in
 * Hadoop's `<configuration><property><name/><value/></property>…</configuration>` format — keeping
 * the line of every property for provenance. As Hadoop's Configuration: names and values are trimmed,
 * `<description>`, `<final>` and `<source>` are accepted and ignored, the attribute form
 * `<property name="…" value="…"/>` works too. `<xi:include>` is not followed (nutch-ts reads one
 * directory, not a tree of files): it is reported as a warning naming the file and line.
 */
import { readFileSync } from 'node:fs';
import { NutchError } from '../errors.js';
import { readXml, type XmlElement } from './xml-reader.js';

export interface XmlProperty {
  name: string;
  value: string;
  line: number;
}

export interface HadoopXmlFile {
  file: string;
  properties: XmlProperty[];
  /** Things read but not used (XInclude, unknown elements), each naming file and line. */
  warnings: string[];
}

const IGNORED_FIELDS = new Set(['description', 'final', 'source', 'tag']);

export function readHadoopXmlFile(file: string): HadoopXmlFile {
  return parseHadoopXml(readFileSync(file, 'utf8'), file);
}

export function parseHadoopXml(text: string, file: string): HadoopXmlFile {
  const root = readXml(text, file);
  const bad = (el: XmlElement, reason: string): never => {
    throw new NutchError('NUTCH_CONFIG_INVALID_XML', `${file}:${el.line}: ${reason}`, { file, line: el.line });
  };
  if (root.name !== 'configuration') bad(root, `the root element is <${root.name}>; a Nutch configuration file has <configuration>`);
  const out: HadoopXmlFile = { file, properties: [], warnings: [] };
  for (const el of root.children) {
    if (isXInclude(el)) {
      out.warnings.push(`${file}:${el.line}: <${el.name} href="${el.attributes.href ?? ''}"> is ignored: nutch-ts does not follow XInclude; copy the included properties into this file.`);
      continue;
    }
    if (el.name !== 'property') {
      out.warnings.push(`${file}:${el.line}: <${el.name}> is not a <property>; ignored.`);
      continue;
    }
    let name = el.attributes.name;
    let value = el.attributes.value;
    for (const field of el.children) {
      if (field.name === 'name') name = field.text;
      else if (field.name === 'value') value = field.text;
      else if (isXInclude(field)) out.warnings.push(`${file}:${field.line}: <${field.name}> inside a property is ignored: nutch-ts does not follow XInclude.`);
      else if (!IGNORED_FIELDS.has(field.name)) bad(field, `unexpected <${field.name}> inside <property>; expected <name>, <value>, <description> or <final>`);
    }
    if (name === undefined || name.trim() === '') bad(el, '<property> has no <name>');
    if (value === undefined) {
      // Hadoop keeps such a property unset; say so rather than silently dropping it.
      out.warnings.push(`${file}:${el.line}: property "${name!.trim()}" has no <value>; ignored.`);
      continue;
    }
    out.properties.push({ name: name!.trim(), value: value.trim(), line: el.line });
  }
  return out;
}

function isXInclude(el: XmlElement): boolean {
  return el.name === 'xi:include' || el.name.endsWith(':include') || el.name === 'include';
}
