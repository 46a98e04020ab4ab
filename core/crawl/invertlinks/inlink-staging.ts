/**
 * invertlinks' disk-backed sort: inverted links (toUrl, fromUrl, anchor) staged into an anonymous
 * temporary SQLite database (removed by SQLite on close or process death), read back in toUrl order.
 * Memory stays bounded by the page cache, never by the number of links.
 */
import Database from 'better-sqlite3';

export class InlinkStaging {
  private readonly db: Database.Database;
  private readonly insertMany: (rows: [string, number, string, string][]) => void;
  private seq = 0;

  constructor(cacheMb = 32) {
    this.db = new Database('');
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma(`cache_size = -${Math.max(2, cacheMb) * 1024}`);
    this.db.exec('CREATE TABLE links (to_url TEXT NOT NULL, seq INTEGER NOT NULL, from_url TEXT NOT NULL, anchor TEXT NOT NULL, PRIMARY KEY (to_url, seq)) WITHOUT ROWID');
    const insert = this.db.prepare('INSERT INTO links VALUES (?, ?, ?, ?)');
    this.insertMany = this.db.transaction((rows: [string, number, string, string][]) => {
      for (const r of rows) insert.run(r);
    });
  }

  get size(): number {
    return this.seq;
  }

  add(links: readonly { toUrl: string; fromUrl: string; anchor: string }[]): void {
    this.insertMany(links.map((l) => [l.toUrl, this.seq++, l.fromUrl, l.anchor]));
  }

  /** Links in toUrl order (SQLite BINARY order), then in the order they were staged. */
  *links(): Generator<{ toUrl: string; fromUrl: string; anchor: string }> {
    const it = this.db.prepare('SELECT to_url, from_url, anchor FROM links ORDER BY to_url, seq').raw(true).iterate() as IterableIterator<[string, string, string]>;
    for (const [toUrl, fromUrl, anchor] of it) yield { toUrl, fromUrl, anchor };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
