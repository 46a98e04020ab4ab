/** The binary's lazy command table names every command of commands.ts, in order, with its summary. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commands } from '../../sdk/cli/commands.js';
import { commandTable } from '../../sdk/cli/command-table.js';

test('the lazy command table matches the commands: names, order, summaries, and what load() gives', async () => {
  assert.deepEqual(commandTable.map((e) => e.name), commands.map((c) => c.name));
  for (const [i, entry] of commandTable.entries()) {
    assert.equal(entry.summary, commands[i]!.summary, entry.name);
    assert.equal(await entry.load(), commands[i], entry.name);
  }
});
