/**
 * protocols.txt, as Nutch's ProtocolURLNormalizer reads it: `<host><tab or space><protocol>` per
 * line, `#` comments; `*.example.com` maps the domain example.com and every host below it. A line
 * with a missing host or protocol, more than two fields or a protocol that is not a URL scheme is
 * skipped with a warning naming the file and line, as Nutch skips it.
 */
import { readFileSync } from 'node:fs';
import { resolveConfFile, type PluginContext } from '../../sdk/plugin.js';

export interface ProtocolRules {
  hosts: Map<string, string>;
  domains: Map<string, string>;
}

export function loadProtocolRules(ctx: PluginContext): ProtocolRules {
  const inline = ctx.conf.getString('urlnormalizer.protocols.rules');
  let text = inline;
  let source = 'urlnormalizer.protocols.rules';
  if (inline.trim() === '') {
    source = resolveConfFile(ctx.conf, ctx.conf.getString('urlnormalizer.protocols.file'), 'urlnormalizer.protocols.file');
    text = readFileSync(source, 'utf8');
  }
  const rules: ProtocolRules = { hosts: new Map(), domains: new Map() };
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const fields = line.split(/\s+/);
    const skip = (why: string) => ctx.log.warn(`${ctx.plugin.id}: ${source}:${index + 1}: ${why}; rule skipped`, { plugin: ctx.plugin.id, file: source, line: index + 1 });
    if (fields.length < 2) return skip(`"${line}" has no protocol`);
    if (fields.length > 2) return skip(`"${line}" has more than two fields`);
    const [host, protocol] = [fields[0].toLowerCase(), fields[1].toLowerCase()];
    if (!/^[a-z][a-z0-9+.-]*$/.test(protocol)) return skip(`"${fields[1]}" is not a valid protocol`);
    if (host.startsWith('*.')) {
      rules.domains.set(host.slice(2), protocol);
      rules.hosts.set(host.slice(2), protocol);
    } else {
      rules.hosts.set(host, protocol);
    }
  });
  ctx.log.info(`${ctx.plugin.id}: rules for ${rules.hosts.size} hosts and ${rules.domains.size} domains from ${source}`);
  return rules;
}
