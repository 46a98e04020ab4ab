/**
 * Nutch's parse-plugins.xml, read as it is: `<parse-plugins><mimeType name="text/html"><plugin
 * id="parse-html" order="1"/></mimeType>…<aliases><alias name="parse-html"
 * extension-id="org.apache.nutch.parse.html.HtmlParser"/></aliases></parse-plugins>`, into the same
 * mapping as parse-plugins.json. Plugins are tried in `order` when given (as Nutch's
 * ParsePluginsReader), else in document order. Errors name the file and line.
 */
import { NutchError } from '../errors.js';
import { readXml, type XmlElement } from '../config/xml-reader.js';
import type { ParsePluginsMapping } from '../extension-points/parser.js';

export function parseParsePluginsXml(text: string, file: string): ParsePluginsMapping {
  const root = readXml(text, file);
  const bad = (el: XmlElement, reason: string): never => {
    throw new NutchError('NUTCH_PARSE_PLUGINS_INVALID', `${file}:${el.line}: ${reason}`, { file, line: el.line, property: 'parse.plugin.file' });
  };
  if (root.name !== 'parse-plugins') bad(root, `the root element is <${root.name}>; parse-plugins.xml has <parse-plugins>`);
  const out: ParsePluginsMapping = { mimeTypes: {} };
  for (const el of root.children) {
    if (el.name === 'mimeType') {
      const name = el.attributes.name?.trim().toLowerCase();
      if (!name) bad(el, '<mimeType> needs a name attribute');
      const plugins = el.children.map((p, i) => {
        if (p.name !== 'plugin') bad(p, `unexpected <${p.name}> inside <mimeType>; expected <plugin id="…"/>`);
        const id = p.attributes.id?.trim();
        if (!id) bad(p, '<plugin> needs an id attribute');
        const order = p.attributes.order === undefined ? NaN : Number(p.attributes.order);
        if (p.attributes.order !== undefined && !Number.isFinite(order)) bad(p, `order="${p.attributes.order}" is not a number`);
        return { id: id!, order: Number.isFinite(order) ? order : Infinity, i };
      });
      plugins.sort((a, b) => a.order - b.order || a.i - b.i);
      out.mimeTypes[name!] = [...(out.mimeTypes[name!] ?? []), ...plugins.map((p) => p.id)];
    } else if (el.name === 'aliases') {
      out.aliases ??= {};
      for (const alias of el.children) {
        if (alias.name !== 'alias') bad(alias, `unexpected <${alias.name}> inside <aliases>; expected <alias name="…" extension-id="…"/>`);
        const name = alias.attributes.name?.trim();
        const target = alias.attributes['extension-id']?.trim();
        if (!name || !target) bad(alias, '<alias> needs name and extension-id attributes');
        out.aliases[name!] = target!;
      }
    } else {
      bad(el, `unexpected <${el.name}> inside <parse-plugins>; expected <mimeType> or <aliases>`);
    }
  }
  return out;
}
