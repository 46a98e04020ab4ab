/**
 * Robots and refresh directives from meta tags, as Nutch's HTMLMetaProcessor: `robots` content
 * none / all / noindex / nofollow / noarchive; http-equiv `pragma: no-cache`; http-equiv `refresh`
 * ("<seconds>[; url=<target>]", the page itself when no URL is given); every name and http-equiv tag
 * collected in generalTags / httpEquivTags with lower-cased names.
 */
import { resolveURL, type HTMLMetaTags } from '../../sdk/plugin.js';
import type { RawMeta } from './dom-content-utils.js';

export function emptyMetaTags(): HTMLMetaTags {
  return {
    noIndex: false,
    noFollow: false,
    noCache: false,
    refresh: false,
    refreshTime: 0,
    refreshHref: null,
    baseHref: null,
    generalTags: {},
    httpEquivTags: {},
  };
}

export function processMetaTags(metas: readonly RawMeta[], baseHref: string | null, baseUrl: string): HTMLMetaTags {
  const tags = emptyMetaTags();
  tags.baseHref = baseHref;
  for (const meta of metas) {
    const content = meta.content.trim();
    if (meta.name) {
      (tags.generalTags[meta.name] ??= []).push(content);
      if (meta.name === 'robots') applyRobots(tags, content);
    }
    if (meta.httpEquiv) {
      (tags.httpEquivTags[meta.httpEquiv] ??= []).push(content);
      if (meta.httpEquiv === 'pragma' && content.toLowerCase().includes('no-cache')) tags.noCache = true;
      if (meta.httpEquiv === 'refresh' && !tags.refresh) applyRefresh(tags, content, baseUrl);
    }
  }
  return tags;
}

function applyRobots(tags: HTMLMetaTags, content: string): void {
  for (const raw of content.toLowerCase().split(',')) {
    const directive = raw.trim();
    if (directive === 'none') {
      tags.noIndex = true;
      tags.noFollow = true;
    } else if (directive === 'all') {
      tags.noIndex = false;
      tags.noFollow = false;
    } else if (directive === 'noindex') tags.noIndex = true;
    else if (directive === 'nofollow') tags.noFollow = true;
    else if (directive === 'noarchive') tags.noCache = true;
  }
}

/** "5; url=/next" — an unparsable delay means no refresh, as Nutch. */
function applyRefresh(tags: HTMLMetaTags, content: string, baseUrl: string): void {
  const sep = content.search(/[;,]/);
  const delayText = (sep < 0 ? content : content.slice(0, sep)).trim();
  if (!/^\d+(\.\d*)?$/.test(delayText)) return;
  tags.refresh = true;
  tags.refreshTime = Math.floor(Number(delayText));
  let href: string | null = null;
  if (sep >= 0) {
    const m = /^\s*(?:url\s*=\s*)?["']?([^"']*)["']?\s*$/i.exec(content.slice(sep + 1));
    const target = m?.[1]?.trim();
    if (target) href = resolveURL(target, baseUrl);
  }
  tags.refreshHref = href ?? baseUrl;
}
