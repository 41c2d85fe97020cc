// The server door's load, in a plain `node` process of its own (no TypeScript loader), so the
// generator neither shares a process with the servers nor pays a loader's cost. Driven over IPC
// by bench/server-door.ts: each message asks for one measurement and is answered with its rate.
//
// Two generators, so a baseline capped by the generator shows: autocannon, and `light`, a bare
// keep-alive client on node:net that writes prebuilt request bytes and reads each answer's
// length from its headers (several times less work per request than autocannon's parser).
// Each answer carries the CPU time this process spent, per request: the generator's own cost.
import { connect } from 'node:net';
import autocannon from 'autocannon';

/** @param {{ url: string, headers: Record<string, string>, connections: number, seconds: number, unique: boolean }} job */
async function withAutocannon(job) {
  const url = job.unique ? `${job.url}${job.url.includes('?') ? '&' : '?'}_=[<id>]` : job.url;
  const r = await autocannon({ url, headers: job.headers, connections: job.connections, duration: job.seconds, idReplacement: job.unique });
  return { requests: r.requests.total, rate: r.requests.average, non2xx: r.non2xx, errors: r.errors + r.timeouts };
}

/** @param {{ url: string, headers: Record<string, string>, connections: number, seconds: number, unique: boolean }} job */
function withLight(job) {
  const url = new URL(job.url);
  const head = (target) => {
    let text = `GET ${target} HTTP/1.1\r\nHost: ${url.host}\r\n`;
    for (const [k, v] of Object.entries(job.headers)) text += `${k}: ${v}\r\n`;
    return Buffer.from(`${text}\r\n`, 'latin1');
  };
  const fixed = head(url.pathname + url.search);
  let serial = 0;
  const request = job.unique ? () => head(`${url.pathname}${url.search ? `${url.search}&` : '?'}_=${serial++}`) : () => fixed;
  let done = 0;
  let non2xx = 0;
  let errors = 0;
  let open = true;
  const sockets = [];
  return new Promise((resolve) => {
    const started = performance.now();
    for (let i = 0; i < job.connections; i++) {
      const socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true });
      sockets.push(socket);
      let pending = Buffer.alloc(0);
      let bodyLeft = -1; // -1: reading headers
      socket.on('connect', () => socket.write(request()));
      socket.on('error', () => errors++);
      socket.on('data', (chunk) => {
        pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
        for (;;) {
          if (bodyLeft < 0) {
            const end = pending.indexOf('\r\n\r\n');
            if (end < 0) return;
            const headers = pending.toString('latin1', 0, end).toLowerCase();
            const status = Number(headers.slice(9, 12));
            if (status < 200 || status > 299) non2xx++;
            const at = headers.indexOf('\r\ncontent-length:');
            if (at < 0 && headers.includes('transfer-encoding')) throw new Error('light generator: chunked answers are not read');
            bodyLeft = at < 0 ? 0 : parseInt(headers.slice(at + 17), 10);
            pending = pending.subarray(end + 4);
          }
          if (pending.length < bodyLeft) return;
          pending = pending.subarray(bodyLeft);
          bodyLeft = -1;
          done++;
          if (open) socket.write(request());
        }
      });
    }
    setTimeout(() => {
      open = false;
      const seconds = (performance.now() - started) / 1000;
      for (const s of sockets) s.destroy();
      resolve({ requests: done, rate: done / seconds, non2xx, errors });
    }, job.seconds * 1000);
  });
}

process.on('message', async (job) => {
  const cpu = process.cpuUsage();
  const result = job.generator === 'light' ? await withLight(job) : await withAutocannon(job);
  const used = process.cpuUsage(cpu);
  process.send({ ...result, generatorCpuUsPerRequest: result.requests ? (used.user + used.system) / result.requests : 0 });
});
process.send({ ready: true });
