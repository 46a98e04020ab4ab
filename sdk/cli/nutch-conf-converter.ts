/**
 * `nutch convert-conf`: an Apache Nutch conf/ directory to nutch-ts's JSON forms. nutch-site.xml
 * (and the values of a nutch-default.xml that differ from nutch-ts's defaults) become nutch-site.json
 * with every value typed by its declaration (core or plugin); parse-plugins.xml and index-writers.xml
 * become their JSON forms; rule files (*.txt, regex-normalize.xml) are copied as they are, since
 * nutch-ts reads them unchanged. Every property nutch-ts does not use is listed with its file, line
 * and why, and plugin.includes alternatives that match no plugin are noted with what to use instead.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { NutchError } from '../../core/errors.js';
import { closestName, coerce } from '../../core/config/property-types.js';
import { readHadoopXmlFile } from '../../core/config/hadoop-xml-file.js';
import { DEFAULT_XML_FILE, SITE_XML_FILE } from '../../core/config/load-configuration.js';
import { parseIndexWritersXml, indexWritersToJson } from '../../core/crawl/index/index-writers-xml.js';
import { parseParsePluginsXml } from '../../core/parse/parse-plugins-xml.js';
import { checkIncludes, describeUnmatched } from '../../core/plugin/includes-check.js';
import type { NutchContext } from '../../core/crawl/context.js';

export interface UnusedProperty {
  name: string;
  value: string;
  /** file:line */
  where: string;
  reason: string;
}

export interface ConversionReport {
  written: string[];
  copied: string[];
  unused: UnusedProperty[];
  notes: string[];
  /** Properties written to nutch-site.json. */
  properties: number;
}

const CONVERTED = new Set([SITE_XML_FILE, DEFAULT_XML_FILE, 'parse-plugins.xml', 'index-writers.xml']);
const UNUSED_FILE = 'unsupported-properties.txt';

/** `ctx` supplies the declarations: nutch-default.json and every discovered plugin's config. */
export function convertNutchConf(ctx: NutchContext, confDir: string, outDir: string): ConversionReport {
  const from = resolve(confDir);
  const to = resolve(outDir);
  if (!existsSync(from) || !statSync(from).isDirectory()) throw new NutchError('NUTCH_CONFIG_FILE_NOT_FOUND', `${from} is not a directory.`, { file: from });
  const present = (name: string) => existsSync(join(from, name));
  if (![...CONVERTED].some(present)) {
    throw new NutchError('NUTCH_CONFIG_FILE_NOT_FOUND', `${from} holds none of ${[...CONVERTED].join(', ')}: is it a Nutch conf/ directory?`, { file: from });
  }
  mkdirSync(to, { recursive: true });
  const report: ConversionReport = { written: [], copied: [], unused: [], notes: [], properties: 0 };
  const conf = ctx.conf;

  const site: Record<string, unknown> = {};
  for (const name of [DEFAULT_XML_FILE, SITE_XML_FILE]) {
    if (!present(name)) continue;
    const file = join(from, name);
    const xml = readHadoopXmlFile(file);
    report.notes.push(...xml.warnings);
    for (const p of xml.properties) {
      const where = `${file}:${p.line}`;
      const def = conf.definition(p.name);
      if (!def) {
        const near = closestName(p.name, conf.definitions().keys());
        report.unused.push({ name: p.name, value: p.value, where, reason: conf.isUnsupported(p.name) ? 'not supported by nutch-ts' : `unknown to nutch-ts${near ? ` (closest: ${near})` : ''}` });
        continue;
      }
      const typed = coerce(def, p.value);
      if (!typed.ok) {
        report.unused.push({ name: p.name, value: p.value, where, reason: `invalid value: ${typed.reason}` });
        continue;
      }
      // A nutch-default.xml restates defaults: keep only what differs from nutch-ts's.
      if (name === DEFAULT_XML_FILE && JSON.stringify(typed.value) === JSON.stringify(conf.get(p.name))) continue;
      site[p.name] = typed.value;
    }
  }
  if (present(SITE_XML_FILE) || present(DEFAULT_XML_FILE)) {
    const sorted = Object.fromEntries(Object.keys(site).sort().map((k) => [k, site[k]]));
    writeJson(join(to, 'nutch-site.json'), { $comment: `Converted from ${from} by nutch convert-conf.`, ...sorted });
    report.written.push(join(to, 'nutch-site.json'));
    report.properties = Object.keys(site).length;
  }
  const includes = site['plugin.includes'];
  if (typeof includes === 'string') {
    for (const u of checkIncludes(includes, ctx.plugins.descriptors.map((d) => d.id))) report.notes.push(describeUnmatched(u, 'converted nutch-site.json'));
  }

  if (present('parse-plugins.xml')) {
    const file = join(from, 'parse-plugins.xml');
    writeJson(join(to, 'parse-plugins.json'), { $comment: `Converted from ${file} by nutch convert-conf.`, ...parseParsePluginsXml(readFileSync(file, 'utf8'), file) });
    report.written.push(join(to, 'parse-plugins.json'));
  }
  if (present('index-writers.xml')) {
    const file = join(from, 'index-writers.xml');
    const json = indexWritersToJson(parseIndexWritersXml(readFileSync(file, 'utf8'), file)) as object;
    writeJson(join(to, 'index-writers.json'), { $comment: `Converted from ${file} by nutch convert-conf.`, ...json });
    report.written.push(join(to, 'index-writers.json'));
  }

  if (from !== to) {
    for (const name of readdirSync(from).sort()) {
      const isRuleFile = name.endsWith('.txt') || name === 'regex-normalize.xml';
      if (!isRuleFile || name === UNUSED_FILE || !statSync(join(from, name)).isFile()) continue;
      copyFileSync(join(from, name), join(to, name));
      report.copied.push(join(to, name));
    }
  }

  report.unused.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines = report.unused.map((u) => `${u.name}\t${u.value}\t${u.where}\t${u.reason}`);
  writeFileSync(join(to, UNUSED_FILE), `# Properties of ${from} that nutch-ts does not use (name, value, where, why)\n${lines.join('\n')}${lines.length ? '\n' : ''}`);
  report.written.push(join(to, UNUSED_FILE));
  return report;
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, JSON.stringify(value, null, 2) + '\n');
}
