import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { datum, engine, tempDir } from './storage-helpers.js';

test('a second writer is refused while the first holds .locked (PID, host, start time)', async () => {
  const dir = tempDir();
  const db = await engine().openCrawlDb(dir);
  const first = await db.beginUpdate();
  const info = JSON.parse(fs.readFileSync(path.join(dir, '.locked'), 'utf8'));
  assert.equal(info.pid, process.pid);
  assert.equal(info.host, os.hostname());
  assert.ok(!Number.isNaN(Date.parse(info.started)));
  const second = await engine().openCrawlDb(dir);
  await assert.rejects(second.beginUpdate(), (err: { code: string; message: string }) => {
    assert.equal(err.code, 'NUTCH_STORAGE_LOCKED');
    assert.match(err.message, new RegExp(`process ${process.pid}`));
    assert.match(err.message, /-force/);
    return true;
  });
  await first.put([{ url: 'http://a/', value: datum(1) }]);
  await first.commit();
  const third = await second.beginUpdate();
  await third.abort();
  await db.close();
  await second.close();
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

test('the LinkDb has the same layout and lock', async () => {
  const dir = tempDir();
  const linkdb = await engine().openLinkDb(dir);
  const up = await linkdb.beginUpdate();
  await assert.rejects((await engine().openLinkDb(dir)).beginUpdate(), { code: 'NUTCH_STORAGE_LOCKED' });
  const inl = { inlinks: [{ fromUrl: 'http://x/', anchor: 'x' }, { fromUrl: 'http://y/', anchor: '' }] };
  await up.put([{ url: 'http://t/', value: inl }]);
  assert.deepEqual(await up.get('http://t/'), inl);
  assert.equal(await linkdb.get('http://t/'), null);
  await up.commit();
  assert.deepEqual(await linkdb.get('http://t/'), inl);
  assert.equal(await linkdb.count(), 1);
  assert.ok(fs.existsSync(path.join(dir, 'current', 'part-00000')));
  await linkdb.close();
});
