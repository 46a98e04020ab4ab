/** Inlink and Inlinks: the LinkDb's record of the links pointing at one URL. */
export interface Inlink {
  fromUrl: string;
  anchor: string;
}

export interface Inlinks {
  inlinks: Inlink[];
}

/** Distinct anchors, as Nutch's Inlinks.getAnchors (empty anchors skipped). */
export function getAnchors(inlinks: Inlinks | null | undefined): string[] {
  if (!inlinks) return [];
  const seen = new Set<string>();
  for (const link of inlinks.inlinks) if (link.anchor) seen.add(link.anchor);
  return [...seen];
}
