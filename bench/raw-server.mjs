// The server door's baseline, in a plain `node` process: raw node:http answering each path with
// the status, headers and bytes the emulator answered it (sent once over IPC), looked up by the
// path without the cache-missing `_=` parameter. Prints nothing; reports its port over IPC.
import { createServer } from 'node:http';

const answerPath = (path) => path.replace(/[?&]_=[^&]*$/, '');

process.on('SIGINT', () => process.exit(0)); // exits as a person stops it (so --cpu-prof writes its profile)
process.once('message', (m) => {
  const answers = new Map(Object.entries(m.recorded).map(([path, r]) => [path, { ...r, body: Buffer.from(r.body, 'base64') }]));
  const server = createServer((req, res) => {
    const a = answers.get(answerPath(req.url ?? ''));
    if (!a) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(a.status, a.headers);
    res.end(a.body);
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
});
