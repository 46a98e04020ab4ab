/**
 * index-writers.json (property indexer.indexwriters.file), Nutch's index-writers.xml as JSON: each
 * writer has an id, the IndexWriter extension it runs (id or Nutch class name), string parameters and
 * a field mapping applied to every document before that writer sees it (copy, then rename, then
 * remove, as Nutch's IndexWriters.mapDocument). Errors name the file and the JSON pointer.
 */
import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { NutchError } from '../../errors.js';
import { parseJsonText } from '../../config/json-file.js';
import { isXmlFile, resolveConfFileOrXml } from '../../config/load-configuration.js';
import { parseIndexWritersXml } from './index-writers-xml.js';
import type { Configuration } from '../../config/configuration.js';
// index-writers.schema.json compiled by ajv at build time (core/plugin/generate-schema-validators.ts)
import { validate as generatedValidate } from './index-writers-validator.generated.js';

export interface FieldMapping {
  /** source field -> destination fields (values appended). */
  copy: Map<string, string[]>;
  /** source field -> new name. */
  rename: Map<string, string>;
  remove: string[];
}

export interface IndexWriterConfig {
  id: string;
  /** IndexWriter extension id or alias (Nutch class name). */
  extension: string;
  parameters: Record<string, string>;
  mapping: FieldMapping;
  /** JSON pointer of this writer in its file, or `line N` in index-writers.xml, for error messages. */
  pointer: string;
  /** "file: /writers/0" or "file:12": where this writer is written. */
  where: string;
}

export interface IndexWritersConfig {
  file: string;
  writers: IndexWriterConfig[];
}

const validate = generatedValidate as ValidateFunction;

type RawEntry = string | { source: string; dest?: string | string[] };
interface RawWriter {
  id: string;
  extension?: string;
  class?: string;
  parameters?: Record<string, string | number | boolean>;
  mapping?: { copy?: RawEntry[]; rename?: RawEntry[]; remove?: RawEntry[] };
}

function invalid(file: string, pointer: string, message: string): NutchError {
  return new NutchError('NUTCH_INDEX_WRITERS_INVALID', `${file}: ${pointer || '/'} ${message}`, { file, pointer });
}

function pointerOf(e: ErrorObject): string {
  const extra = e.keyword === 'additionalProperties' ? `/${(e.params as { additionalProperty: string }).additionalProperty}` : '';
  return `${e.instancePath}${extra}`;
}

function destinations(entry: RawEntry): string[] {
  if (typeof entry === 'string' || entry.dest === undefined) return [];
  const list = Array.isArray(entry.dest) ? entry.dest : entry.dest.split(',');
  return list.map((d) => d.trim()).filter(Boolean);
}

function toMapping(raw: RawWriter['mapping'], file: string, base: string): FieldMapping {
  const mapping: FieldMapping = { copy: new Map(), rename: new Map(), remove: [] };
  const source = (e: RawEntry) => (typeof e === 'string' ? e : e.source);
  (raw?.copy ?? []).forEach((e, i) => {
    const dest = destinations(e);
    if (!dest.length) throw invalid(file, `${base}/mapping/copy/${i}`, 'needs "dest" (a field name, comma-separated names, or an array).');
    mapping.copy.set(source(e), [...(mapping.copy.get(source(e)) ?? []), ...dest]);
  });
  (raw?.rename ?? []).forEach((e, i) => {
    const dest = destinations(e);
    if (dest.length !== 1) throw invalid(file, `${base}/mapping/rename/${i}`, 'needs exactly one "dest" field name.');
    mapping.rename.set(source(e), dest[0]!);
  });
  for (const e of raw?.remove ?? []) mapping.remove.push(source(e));
  return mapping;
}

/** Validates an already-parsed index-writers document (exported for tests and embedders). */
export function parseIndexWritersConfig(raw: unknown, file: string): IndexWritersConfig {
  if (!validate(raw)) {
    const e = validate.errors![0]!;
    const msg = e.keyword === 'additionalProperties' ? 'is not a known field' : e.message ?? e.keyword;
    throw invalid(file, pointerOf(e), msg);
  }
  const writers: IndexWriterConfig[] = [];
  const seen = new Set<string>();
  ((raw as { writers: RawWriter[] }).writers).forEach((w, i) => {
    const pointer = `/writers/${i}`;
    const extension = w.extension ?? w.class;
    if (!extension) throw invalid(file, pointer, `writer "${w.id}" needs "extension" (an IndexWriter extension id such as indexer-sqlite, or a Nutch class name).`);
    if (seen.has(w.id)) throw invalid(file, `${pointer}/id`, `duplicate writer id "${w.id}".`);
    seen.add(w.id);
    const parameters: Record<string, string> = {};
    for (const [k, v] of Object.entries(w.parameters ?? {})) parameters[k] = String(v);
    writers.push({ id: w.id, extension, parameters, mapping: toMapping(w.mapping, file, pointer), pointer, where: `${file}: ${pointer}` });
  });
  return { file, writers };
}

/**
 * Reads the file named by indexer.indexwriters.file (conf dirs, then the shipped conf/); Nutch's
 * index-writers.xml in a conf directory is read when the JSON file is not there (see resolveConfFileOrXml).
 */
export function readIndexWritersConfig(conf: Configuration): IndexWritersConfig {
  const file = resolveConfFileOrXml(conf, conf.getString('indexer.indexwriters.file'), 'indexer.indexwriters.file');
  const text = readFileSync(file, 'utf8');
  if (isXmlFile(file, text)) return parseIndexWritersXml(text, file);
  const raw = parseJsonText(text, file, 'NUTCH_INDEX_WRITERS_INVALID');
  return parseIndexWritersConfig(raw, file);
}
