/** NutchDocument: the fields an IndexWriter receives; values are multi-valued, as Nutch's. */
export type FieldValue = string | number | boolean | Date;

export interface NutchDocument {
  fields: Record<string, FieldValue[]>;
  /** Document boost, from ScoringFilter.indexerScore. */
  weight: number;
  documentMeta: Record<string, string[]>;
}

export function createDocument(): NutchDocument {
  return { fields: {}, weight: 1, documentMeta: {} };
}

export function addField(doc: NutchDocument, name: string, value: FieldValue | FieldValue[]): void {
  const list = (doc.fields[name] ??= []);
  if (Array.isArray(value)) list.push(...value);
  else list.push(value);
}

export function setField(doc: NutchDocument, name: string, value: FieldValue | FieldValue[]): void {
  doc.fields[name] = Array.isArray(value) ? [...value] : [value];
}

export function getFieldValue(doc: NutchDocument, name: string): FieldValue | undefined {
  return doc.fields[name]?.[0];
}

export function removeField(doc: NutchDocument, name: string): void {
  delete doc.fields[name];
}
