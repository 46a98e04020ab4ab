/**
 * Child-process entry of the test web: starts it with the options given as JSON in argv[2], reports
 * `{ hosts }` over IPC, and closes when the parent says `close` or disconnects.
 */
import { startTestWeb } from '../../tests/web/test-web.js';

const options = JSON.parse(process.argv[2] ?? '{}');
const web = await startTestWeb(options);
const requests = () => [...web.requestLog.values()].reduce((n, l) => n + l.length, 0);
process.send!({ type: 'ready', hosts: web.hosts });
process.on('message', async (msg: { type: string }) => {
  if (msg.type === 'stats') process.send!({ type: 'stats', requests: requests(), rss: process.memoryUsage().rss, cpu: process.cpuUsage() });
  if (msg.type === 'close') {
    await web.close();
    process.exit(0);
  }
});
process.on('disconnect', () => void web.close().then(() => process.exit(0)));
