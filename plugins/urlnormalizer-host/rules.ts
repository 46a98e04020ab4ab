/**
 * host-urlnormalizer.txt, as Nutch's HostURLNormalizer reads it: `<host> <target>` per line, `#`
 * comments; `*.example.org` as host matches the subdomains of example.org. A line without a target
 * is skipped with a warning naming the file and line (Nutch fails reading the whole file there).
 */
import { readFileSync } from 'node:fs';
import { resolveConfFile, type PluginContext } from '../../sdk/plugin.js';

export function loadHostRules(ctx: PluginContext): Map<string, string> {
  const inline = ctx.conf.getString('urlnormalizer.hosts.rules');
  let text = inline;
  let source = 'urlnormalizer.hosts.rules';
  if (inline.trim() === '') {
    source = resolveConfFile(ctx.conf, ctx.conf.getString('urlnormalizer.hosts.file'), 'urlnormalizer.hosts.file');
    text = readFileSync(source, 'utf8');
  }
  const hosts = new Map<string, string>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const fields = line.split(/\s+/);
    if (fields.length !== 2) {
      ctx.log.warn(`${ctx.plugin.id}: ${source}:${index + 1}: expected "<host> <target host>", got "${line}"; rule skipped`, { plugin: ctx.plugin.id, file: source, line: index + 1 });
      return;
    }
    hosts.set(fields[0].toLowerCase(), fields[1].toLowerCase());
  });
  ctx.log.info(`${ctx.plugin.id}: ${hosts.size} host mappings from ${source}`);
  return hosts;
}
