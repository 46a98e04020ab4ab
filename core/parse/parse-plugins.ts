/**
 * parse-plugins.json (Nutch's parse-plugins.xml as JSON; the XML itself is read too), found through `parse.plugin.file` like every
 * rule file: content type -> ordered parser names, `aliases` from short names to extension ids or
 * Nutch class names, `*` the fallback. Shape errors name the file and the JSON pointer.
 */
import { NutchError } from '../errors.js';
import type { Configuration } from '../config/configuration.js';
import { readFileSync } from 'node:fs';
import { isXmlFile, resolveConfFileOrXml } from '../config/load-configuration.js';
import { parseJsonText } from '../config/json-file.js';
import { parseParsePluginsXml } from './parse-plugins-xml.js';
import type { ParsePluginsMapping } from '../extension-points/parser.js';

/** parse.plugin.file; Nutch's parse-plugins.xml in a conf directory is read when the JSON file is not there. */
export function loadParsePlugins(conf: Configuration): ParsePluginsMapping {
  const file = resolveConfFileOrXml(conf, conf.getString('parse.plugin.file'), 'parse.plugin.file');
  const text = readFileSync(file, 'utf8');
  if (isXmlFile(file, text)) return parseParsePluginsXml(text, file);
  return validateParsePlugins(parseJsonText(text, file, 'NUTCH_PARSE_PLUGINS_INVALID'), file);
}

export function validateParsePlugins(raw: unknown, file: string): ParsePluginsMapping {
  const bad = (pointer: string, what: string): never => {
    throw new NutchError('NUTCH_PARSE_PLUGINS_INVALID', `${file} at ${pointer || '/'}: ${what}.`, { file, pointer, property: 'parse.plugin.file' });
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) bad('', 'expected an object with "mimeTypes"');
  const obj = raw as Record<string, unknown>;
  const mimeTypes = obj.mimeTypes;
  if (typeof mimeTypes !== 'object' || mimeTypes === null || Array.isArray(mimeTypes)) bad('/mimeTypes', 'expected an object of content type -> array of parser names');
  const out: ParsePluginsMapping = { mimeTypes: {} };
  for (const [type, list] of Object.entries(mimeTypes as Record<string, unknown>)) {
    const pointer = `/mimeTypes/${type.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!Array.isArray(list) || list.some((x) => typeof x !== 'string' || !x)) bad(pointer, 'expected an array of parser names (strings)');
    out.mimeTypes[type.toLowerCase()] = list as string[];
  }
  if (obj.aliases !== undefined) {
    if (typeof obj.aliases !== 'object' || obj.aliases === null || Array.isArray(obj.aliases)) bad('/aliases', 'expected an object of name -> extension id');
    for (const [name, target] of Object.entries(obj.aliases as Record<string, unknown>)) {
      if (typeof target !== 'string' || !target) bad(`/aliases/${name}`, 'expected an extension id or class name (string)');
    }
    out.aliases = { ...(obj.aliases as Record<string, string>) };
  }
  return out;
}
