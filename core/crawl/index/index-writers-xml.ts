/**
 * Nutch's index-writers.xml, read as it is:
 * `<writers><writer id="…" class="org.apache.nutch.indexwriter…"><parameters><param name="…" value="…"/>
 * </parameters><mapping><copy|rename|remove><field source="…" dest="…"/></…></mapping></writer></writers>`.
 * Same meaning as index-writers.json (copy dest may be comma-separated, as Nutch's); errors name the
 * file and line.
 */
import { NutchError } from '../../errors.js';
import { readXml, type XmlElement } from '../../config/xml-reader.js';
import type { FieldMapping, IndexWriterConfig, IndexWritersConfig } from './index-writers-config.js';

export function parseIndexWritersXml(text: string, file: string): IndexWritersConfig {
  const root = readXml(text, file);
  const bad = (el: XmlElement, reason: string): never => {
    throw new NutchError('NUTCH_INDEX_WRITERS_INVALID', `${file}:${el.line}: ${reason}`, { file, line: el.line });
  };
  if (root.name !== 'writers') bad(root, `the root element is <${root.name}>; index-writers.xml has <writers>`);
  const writers: IndexWriterConfig[] = [];
  for (const el of root.children) {
    if (el.name !== 'writer') bad(el, `unexpected <${el.name}> inside <writers>; expected <writer id="…" class="…">`);
    const id = el.attributes.id?.trim();
    const extension = el.attributes.class?.trim();
    if (!id) bad(el, '<writer> needs an id attribute');
    if (!extension) bad(el, `<writer id="${id}"> needs a class attribute (a Nutch IndexWriter class name or a nutch-ts extension id)`);
    if (writers.some((w) => w.id === id)) bad(el, `duplicate writer id "${id}"`);
    const parameters: Record<string, string> = {};
    const mapping: FieldMapping = { copy: new Map(), rename: new Map(), remove: [] };
    for (const section of el.children) {
      if (section.name === 'parameters') {
        for (const param of section.children) {
          if (param.name !== 'param') bad(param, `unexpected <${param.name}> inside <parameters>; expected <param name="…" value="…"/>`);
          const name = param.attributes.name;
          if (!name) bad(param, '<param> needs a name attribute');
          parameters[name!] = param.attributes.value ?? param.text.trim();
        }
      } else if (section.name === 'mapping') {
        readMapping(section, mapping, bad);
      } else {
        bad(section, `unexpected <${section.name}> inside <writer>; expected <parameters> or <mapping>`);
      }
    }
    writers.push({ id: id!, extension: extension!, parameters, mapping, pointer: `line ${el.line}`, where: `${file}:${el.line}` });
  }
  return { file, writers };
}

function readMapping(section: XmlElement, mapping: FieldMapping, bad: (el: XmlElement, reason: string) => never): void {
  for (const kind of section.children) {
    if (kind.name !== 'copy' && kind.name !== 'rename' && kind.name !== 'remove') bad(kind, `unexpected <${kind.name}> inside <mapping>; expected <copy>, <rename> or <remove>`);
    for (const field of kind.children) {
      if (field.name !== 'field') bad(field, `unexpected <${field.name}> inside <${kind.name}>; expected <field source="…"/>`);
      const source = field.attributes.source?.trim();
      if (!source) bad(field, '<field> needs a source attribute');
      const dest = (field.attributes.dest ?? '').split(',').map((d) => d.trim()).filter(Boolean);
      if (kind.name === 'copy') {
        if (!dest.length) bad(field, `<field source="${source}"> in <copy> needs a dest attribute`);
        mapping.copy.set(source!, [...(mapping.copy.get(source!) ?? []), ...dest]);
      } else if (kind.name === 'rename') {
        if (dest.length !== 1) bad(field, `<field source="${source}"> in <rename> needs exactly one dest field`);
        mapping.rename.set(source!, dest[0]!);
      } else {
        mapping.remove.push(source!);
      }
    }
  }
}

/** index-writers.json's form of a configuration (what nutch convert-conf writes). */
export function indexWritersToJson(config: IndexWritersConfig): unknown {
  return {
    writers: config.writers.map((w) => ({
      id: w.id,
      extension: w.extension,
      parameters: w.parameters,
      mapping: {
        copy: [...w.mapping.copy].map(([source, dest]) => ({ source, dest })),
        rename: [...w.mapping.rename].map(([source, dest]) => ({ source, dest })),
        remove: w.mapping.remove.map((source) => ({ source })),
      },
    })),
  };
}
