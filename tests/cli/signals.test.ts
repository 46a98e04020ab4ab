/** SIGTERM (docker stop, systemd) and SIGINT on commands that run until their input ends. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startNutch } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`a checker reading a pipe stops on the first ${signal}: the lines it answered stay answered, exit 130`, async (t) => {
    const cwd = tempDir(t);
    const run = startNutch(['normalizerchecker', '-stdin'], { cwd, env: { NUTCH_CONF_DIR: cwd }, stdin: 'HTTP://A.example/x\n', keepStdinOpen: true });
    // the pipe stays open: only the signal can end the command
    await new Promise<void>((resolve) => {
      let out = '';
      run.child.stdout.on('data', (c: string) => {
        out += c;
        if (out.includes('\n')) resolve();
      });
    });
    run.child.kill(signal);
    const r = await run.result;
    assert.equal(r.code, 130, r.stderr);
    assert.equal(r.stdout, 'http://a.example/x\n');
    assert.match(r.stderr, new RegExp(`Received ${signal}: stopping politely`));
  });
}
