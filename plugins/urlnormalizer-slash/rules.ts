/**
 * slashes.txt, as Nutch's SlashURLNormalizer reads it: `<host><space or tab><+|->` per line, `#`
 * comments. A line whose rule is neither + nor - is skipped with a warning naming the file and line
 * (Nutch reads anything but + as -).
 */
import { readFileSync } from 'node:fs';
import { resolveConfFile, type PluginContext } from '../../sdk/plugin.js';

/** host -> true (add a trailing slash) or false (remove it). */
export function loadSlashRules(ctx: PluginContext): Map<string, boolean> {
  const inline = ctx.conf.getString('urlnormalizer.slashes.rules');
  let text = inline;
  let source = 'urlnormalizer.slashes.rules';
  if (inline.trim() === '') {
    source = resolveConfFile(ctx.conf, ctx.conf.getString('urlnormalizer.slashes.file'), 'urlnormalizer.slashes.file');
    text = readFileSync(source, 'utf8');
  }
  const rules = new Map<string, boolean>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const fields = line.split(/\s+/);
    if (fields.length !== 2 || (fields[1] !== '+' && fields[1] !== '-')) {
      ctx.log.warn(`${ctx.plugin.id}: ${source}:${index + 1}: expected "<host> +" or "<host> -", got "${line}"; rule skipped`, { plugin: ctx.plugin.id, file: source, line: index + 1 });
      return;
    }
    rules.set(fields[0].toLowerCase(), fields[1] === '+');
  });
  ctx.log.info(`${ctx.plugin.id}: slash rules for ${rules.size} hosts from ${source}`);
  return rules;
}
