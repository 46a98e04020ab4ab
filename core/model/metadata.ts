/** Nutch's Metadata: a multi-valued string map. Plain object so it crosses worker threads intact. */
export type Metadata = Record<string, string[]>;

export function createMetadata(init?: Record<string, string | string[]>): Metadata {
  const md: Metadata = {};
  if (init) for (const [k, v] of Object.entries(init)) md[k] = Array.isArray(v) ? [...v] : [v];
  return md;
}

/** First value of a key (Nutch's Metadata.get). */
export function getMeta(md: Metadata | undefined, name: string): string | undefined {
  return md?.[name]?.[0];
}

/** Case-insensitive lookup, as Nutch's SpellCheckedMetadata does for HTTP headers. */
export function getMetaIgnoreCase(md: Metadata | undefined, name: string): string | undefined {
  if (!md) return undefined;
  const direct = md[name];
  if (direct) return direct[0];
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(md)) if (k.toLowerCase() === lower) return v[0];
  return undefined;
}

export function setMeta(md: Metadata, name: string, value: string): void {
  md[name] = [value];
}

export function addMeta(md: Metadata, name: string, value: string): void {
  (md[name] ??= []).push(value);
}
