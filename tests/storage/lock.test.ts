import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { datum, engine, tempDir } from './storage-helpers.js';

/*
 * What the embedded engine's lock file does beyond the storage conformance suite's writer-lock tests
 * (tests/storage/conformance-stores.ts, run on SQLite by sqlite-conformance.test.ts): what `.locked`
 * records, stale and foreign lock files, -force, and the LinkDb's Nutch layout.
 */

test('.locked records the holder: PID, host and start time; commit removes it', async () => {
  const dir = tempDir();
  const db = await engine().openCrawlDb(dir);
  const first = await db.beginUpdate();
  const info = JSON.parse(fs.readFileSync(path.join(dir, '.locked'), 'utf8'));
  assert.equal(info.pid, process.pid);
  assert.equal(info.host, os.hostname());
  assert.ok(!Number.isNaN(Date.parse(info.started)));
  await first.put([{ url: 'http://a/', value: datum(1) }]);
  await first.commit();
  assert.ok(!fs.existsSync(path.join(dir, '.locked')));
  await db.close();
});

test('a lock left by a dead process on this host is broken with a warning', async () => {
  const dir = tempDir();
  // A PID that surely is gone: a child that already exited.
  const child = spawnSync(process.execPath, ['-e', 'process.exit(0)']);
  const deadPid = child.pid!;
  fs.writeFileSync(path.join(dir, '.locked'), JSON.stringify({ pid: deadPid, host: os.hostname(), started: '2020-01-01T00:00:00.000Z' }));
  const warnings: string[] = [];
  const db = await engine(warnings).openCrawlDb(dir);
  const up = await db.beginUpdate();
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], new RegExp(`stale lock .*process ${deadPid}`));
  await up.commit();
  await db.close();
});

test('a lock from another host or a foreign lock file needs force', async () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, '.locked'), JSON.stringify({ pid: 1, host: 'some-other-host', started: 'x' }));
  const warnings: string[] = [];
  const db = await engine(warnings).openCrawlDb(dir);
  await assert.rejects(db.beginUpdate(), { code: 'NUTCH_STORAGE_LOCKED' });
  fs.writeFileSync(path.join(dir, '.locked'), ''); // Nutch's own lock is an empty file
  await assert.rejects(db.beginUpdate(), { code: 'NUTCH_STORAGE_LOCKED' });
  const up = await db.beginUpdate({ force: true });
  assert.match(warnings.join('\n'), /Forcing lock/);
  await up.commit();
  assert.ok(!fs.existsSync(path.join(dir, '.locked')));
  await db.close();
});

test('the LinkDb has the same layout and lock file', async () => {
  const dir = tempDir();
  const linkdb = await engine().openLinkDb(dir);
  const up = await linkdb.beginUpdate();
  assert.equal(JSON.parse(fs.readFileSync(path.join(dir, '.locked'), 'utf8')).pid, process.pid);
  await up.put([{ url: 'http://t/', value: { inlinks: [{ fromUrl: 'http://x/', anchor: 'x' }] } }]);
  await up.commit();
  assert.ok(!fs.existsSync(path.join(dir, '.locked')));
  assert.ok(fs.existsSync(path.join(dir, 'current', 'part-00000')));
  await linkdb.close();
});
