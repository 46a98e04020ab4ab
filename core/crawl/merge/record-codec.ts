/** Any model value (bytes included) as one JSON string for scratch space (ExternalSort payloads), and back. */
export function encodeRecord(value: unknown): string {
  // `this[k]` is the value before toJSON: a Buffer would otherwise arrive as { type, data: [...] }
  return JSON.stringify(value, function (this: Record<string, unknown>, k: string, v: unknown) {
    const raw = this[k];
    return raw instanceof Uint8Array ? { $bytes: Buffer.from(raw).toString('base64') } : v;
  });
}

export function decodeRecord<V>(s: string): V {
  return JSON.parse(s, (_k, v: unknown) => {
    if (v && typeof v === 'object' && '$bytes' in v && Object.keys(v).length === 1) return new Uint8Array(Buffer.from((v as { $bytes: string }).$bytes, 'base64'));
    return v;
  }) as V;
}
