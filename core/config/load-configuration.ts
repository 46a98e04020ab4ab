/**
 * Builds a Configuration the same way for the CLI and createNutch(): shipped defaults, then the site
 * files of the first of $NUTCH_CONF_DIR, ./conf or the working directory that holds one, then
 * programmatic values, then -D. Plugin defaults are declared later by the PluginRepository.
 *
 * Site files, in the order they are read (a later file wins property by property):
 * Nutch's nutch-default.xml (an operator's override of the defaults), Nutch's nutch-site.xml, then
 * nutch-site.json — so when both site files exist, nutch-site.json wins, with a warning naming both.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, extname, isAbsolute, join, resolve } from 'node:path';
import { NutchError } from '../errors.js';
import { Configuration } from './configuration.js';
import { readJsonFile } from './json-file.js';
import { readHadoopXmlFile } from './hadoop-xml-file.js';
import { packageRoot } from './package-root.js';
import type { PropertyDefinition } from './property-types.js';

export interface LoadConfigurationOptions {
  /** Working directory (default process.cwd()). */
  cwd?: string;
  /** Explicit site file (.json, or Nutch's .xml); otherwise the site files are looked up in the conf directories. */
  configFile?: string;
  /** Programmatic values (createNutch's `config`). */
  config?: Record<string, unknown>;
  /** -D values. */
  defines?: Record<string, string>;
  env?: NodeJS.ProcessEnv;
  /** Only the shipped defaults (and programmatic / -D values): no site file is looked up. */
  noSiteFiles?: boolean;
  /** Where notes about the site files go (XInclude ignored, both site files present); default: dropped. */
  warn?: (message: string) => void;
}

interface DefaultsFile {
  properties: Record<string, PropertyDefinition>;
  unsupported?: string[];
  /** Property families, e.g. `urlnormalizer.order.<scope>`. */
  patterns?: Record<string, PropertyDefinition>;
}

export const SITE_FILE = 'nutch-site.json';
export const SITE_XML_FILE = 'nutch-site.xml';
export const DEFAULT_XML_FILE = 'nutch-default.xml';
const SITE_FILES = [DEFAULT_XML_FILE, SITE_XML_FILE, SITE_FILE];

/** The conf directory the site files came from, and those files in reading order. */
export interface SiteFiles {
  dir?: string;
  files: string[];
}

/** $NUTCH_CONF_DIR, ./conf, the working directory: where site files and rule files are looked up. */
export function confSearchDirs(cwd: string, env: NodeJS.ProcessEnv): string[] {
  const dirs: string[] = [];
  if (env.NUTCH_CONF_DIR) dirs.push(resolve(cwd, env.NUTCH_CONF_DIR));
  dirs.push(join(cwd, 'conf'), cwd);
  return dirs;
}

export function shippedConfDir(): string {
  return join(packageRoot(), 'conf');
}

export function loadConfiguration(opts: LoadConfigurationOptions = {}): Configuration {
  const cwd = opts.cwd ?? process.cwd();
  const env = opts.env ?? process.env;
  const conf = new Configuration(confSearchDirs(cwd, env));
  const defaultsPath = join(shippedConfDir(), 'nutch-default.json');
  const defaults = readJsonFile(defaultsPath) as DefaultsFile;
  conf.declare(defaults.properties, 'core', 'default', 'nutch-default.json');
  conf.markUnsupported(defaults.unsupported ?? []);
  for (const [pattern, def] of Object.entries(defaults.patterns ?? {})) conf.declarePattern(pattern, def, 'core');

  let siteFiles: string[];
  if (opts.configFile) {
    const explicit = resolve(cwd, opts.configFile);
    if (!existsSync(explicit)) throw new NutchError('NUTCH_CONFIG_FILE_NOT_FOUND', `Configuration file ${explicit} does not exist.`, { file: explicit });
    siteFiles = [explicit];
  } else {
    siteFiles = opts.noSiteFiles ? [] : findSiteFiles(conf.confDirs).files;
  }
  const names = siteFiles.map((f) => basename(f));
  if (names.includes(SITE_FILE) && names.includes(SITE_XML_FILE)) {
    opts.warn?.(`Both ${siteFiles[names.indexOf(SITE_XML_FILE)]} and ${SITE_FILE} exist: both are read, and a property set in both takes the value of ${SITE_FILE}. Keep one (nutch convert-conf writes the JSON form).`);
  }
  for (const file of siteFiles) readSiteFile(conf, file, opts.warn);
  if (opts.config) conf.setAll(opts.config, { layer: 'programmatic', source: 'createNutch() config' });
  if (opts.defines) conf.setAll(opts.defines, { layer: 'cli', source: '-D' });
  return conf;
}

/** The first conf directory holding any site file, and the site files in it in reading order. */
export function findSiteFiles(dirs: string[]): SiteFiles {
  for (const dir of dirs) {
    const files = SITE_FILES.map((n) => join(dir, n)).filter((p) => existsSync(p) && statSync(p).isFile());
    if (files.length) return { dir, files };
  }
  return { files: [] };
}

function readSiteFile(conf: Configuration, file: string, warn?: (message: string) => void): void {
  if (extname(file).toLowerCase() === '.xml') {
    const xml = readHadoopXmlFile(file);
    for (const w of xml.warnings) warn?.(w);
    if (basename(file) === DEFAULT_XML_FILE) conf.markDefaultsFile(file);
    for (const p of xml.properties) conf.set(p.name, p.value, { layer: 'site', source: file, line: p.line });
    return;
  }
  const site = readJsonFile(file);
  if (typeof site !== 'object' || site === null || Array.isArray(site)) {
    throw new NutchError('NUTCH_CONFIG_INVALID_VALUE', `${file}: expected a JSON object of property names to values.`, { file });
  }
  conf.setAll(site as Record<string, unknown>, { layer: 'site', source: file });
}

/**
 * Resolves a file named by a property: absolute as is, else the conf directories, then the package's
 * conf/. A missing file is a configuration error naming the property.
 */
export function resolveConfFile(conf: Configuration, fileName: string, property?: string): string {
  if (isAbsolute(fileName)) {
    if (existsSync(fileName)) return fileName;
  } else {
    for (const dir of [...conf.confDirs, shippedConfDir()]) {
      const p = join(dir, fileName);
      if (existsSync(p)) return p;
    }
  }
  const searched = isAbsolute(fileName) ? fileName : [...conf.confDirs, shippedConfDir()].join(', ');
  throw new NutchError(
    'NUTCH_CONFIG_FILE_NOT_FOUND',
    `File "${fileName}"${property ? ` (named by ${property})` : ''} was not found; looked in: ${searched}.`,
    { file: fileName, property },
  );
}

/**
 * resolveConfFile for files Nutch writes as XML and nutch-ts as JSON (parse-plugins, index-writers):
 * in each conf directory the name as given, then its .xml twin (Nutch's parse-plugins.xml,
 * index-writers.xml), and only then the package's conf/ — so a Nutch conf/ directory is used as it is.
 */
export function resolveConfFileOrXml(conf: Configuration, fileName: string, property: string): string {
  if (!isAbsolute(fileName) && extname(fileName).toLowerCase() === '.json') {
    const twin = fileName.slice(0, -'.json'.length) + '.xml';
    for (const dir of conf.confDirs) {
      for (const name of [fileName, twin]) {
        const p = join(dir, name);
        if (existsSync(p)) return p;
      }
    }
  }
  return resolveConfFile(conf, fileName, property);
}

/** An .xml name, or text that starts like XML. */
export function isXmlFile(file: string, text: string): boolean {
  return extname(file).toLowerCase() === '.xml' || /^\uFEFF?\s*</.test(text);
}
