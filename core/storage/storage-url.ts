/** `storage.url` with any password replaced, for messages and logs. */
export function redactStorageUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}
