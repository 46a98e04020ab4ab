/**
 * Builds a Configuration the same way for the CLI and createNutch(): shipped defaults, then
 * nutch-site.json from $NUTCH_CONF_DIR, ./conf or the working directory, then programmatic values,
 * then -D. Plugin defaults are declared later by the PluginRepository.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { NutchError } from '../errors.js';
import { Configuration } from './configuration.js';
import { readJsonFile } from './json-file.js';
import { packageRoot } from './package-root.js';
import type { PropertyDefinition } from './property-types.js';

export interface LoadConfigurationOptions {
  /** Working directory (default process.cwd()). */
  cwd?: string;
  /** Explicit site file; otherwise nutch-site.json is looked up in the conf directories. */
  configFile?: string;
  /** Programmatic values (createNutch's `config`). */
  config?: Record<string, unknown>;
  /** -D values. */
  defines?: Record<string, string>;
  env?: NodeJS.ProcessEnv;
}

interface DefaultsFile {
  properties: Record<string, PropertyDefinition>;
  unsupported?: string[];
  /** Property families, e.g. `urlnormalizer.order.<scope>`. */
  patterns?: Record<string, PropertyDefinition>;
}

export const SITE_FILE = 'nutch-site.json';

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

  const sitePath = opts.configFile ? resolve(cwd, opts.configFile) : findSiteFile(conf.confDirs);
  if (opts.configFile && !existsSync(sitePath!)) {
    throw new NutchError('NUTCH_CONFIG_FILE_NOT_FOUND', `Configuration file ${sitePath} does not exist.`, { file: sitePath });
  }
  if (sitePath) {
    const site = readJsonFile(sitePath);
    if (typeof site !== 'object' || site === null || Array.isArray(site)) {
      throw new NutchError('NUTCH_CONFIG_INVALID_VALUE', `${sitePath}: expected a JSON object of property names to values.`, { file: sitePath });
    }
    conf.setAll(site as Record<string, unknown>, { layer: 'site', source: sitePath });
  }
  if (opts.config) conf.setAll(opts.config, { layer: 'programmatic', source: 'createNutch() config' });
  if (opts.defines) conf.setAll(opts.defines, { layer: 'cli', source: '-D' });
  return conf;
}

function findSiteFile(dirs: string[]): string | undefined {
  for (const dir of dirs) {
    const p = join(dir, SITE_FILE);
    if (existsSync(p) && statSync(p).isFile()) return p;
  }
  return undefined;
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
