// The request log as the command line writes it: lines batched off the request's path, in
// order, each written once, and nothing lost when the process stops.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { RequestLogBuffer } from '../src/http/request-log.js';
import { CLI } from './support/cli.js';


function sink() {
  const writes: string[] = [];
  return { writes, write: (chunk: string) => void writes.push(chunk) };
}

describe('RequestLogBuffer', () => {
  it('writes the lines added meanwhile as one chunk, in order, after its delay', async () => {
    const s = sink();
    const log = new RequestLogBuffer(s, { delayMs: 5 });
    log.add('GET /a 200');
    log.add('GET /b 404');
    expect(s.writes).toEqual([]); // not on the request's path
    await new Promise((r) => setTimeout(r, 30));
    expect(s.writes).toEqual(['GET /a 200\nGET /b 404\n']);
    log.add('GET /c 200');
    await new Promise((r) => setTimeout(r, 30));
    expect(s.writes).toEqual(['GET /a 200\nGET /b 404\n', 'GET /c 200\n']);
  });

  it('writes at once when maxLines wait, and on flush; a flush with nothing waiting writes nothing', () => {
    const s = sink();
    const log = new RequestLogBuffer(s, { delayMs: 60_000, maxLines: 3 });
    for (let i = 0; i < 7; i++) log.add(`line ${i}`);
    expect(s.writes).toEqual(['line 0\nline 1\nline 2\n', 'line 3\nline 4\nline 5\n']);
    log.flush();
    log.flush();
    expect(s.writes.join('')).toBe(Array.from({ length: 7 }, (_, i) => `line ${i}\n`).join(''));
    expect(s.writes).toHaveLength(3);
  });

  it('keeps every line of many requests, each once', async () => {
    const s = sink();
    const log = new RequestLogBuffer(s, { delayMs: 1, maxLines: 100 });
    const lines = Array.from({ length: 1000 }, (_, i) => `GET /projects/${i} 200 root 0.1 ms`);
    for (const [i, line] of lines.entries()) {
      log.add(line);
      if (i % 97 === 0) await new Promise((r) => setTimeout(r, 2));
    }
    log.flush();
    expect(s.writes.join('')).toBe(lines.map((l) => `${l}\n`).join(''));
    expect(s.writes.length).toBeLessThan(100);
  });
});

describe('the command line log', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('is written whole when the server stops on %s right after its requests', async (signal) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve) => {
      const check = () => {
        const m = /^listening on (\S+)$/m.exec(stdout);
        if (m) resolve(m[1]!);
      };
      child.stdout.on('data', check);
    });
    for (let i = 0; i < 30; i++) await (await fetch(`${url}/api/v4/projects/${i}`)).arrayBuffer();
    child.kill(signal);
    expect(await exited).toBe(0);
    const logged = stdout.split('\n').filter((l) => l.startsWith('GET'));
    expect(logged.map((l) => l.split(/\s+/)[1])).toEqual(Array.from({ length: 30 }, (_, i) => `/api/v4/projects/${i}`));
  });
});

describe('formatRequest', () => {
  it('writes the usual line as the general form does, with or without notes and colour', async () => {
    const { formatRequest } = await import('../src/http/request-log.js');
    const base = { method: 'GET', path: '/api/v4/projects?x=1', status: 200, user: 'root', durationMs: 1.26, surface: 'api-v4' };
    expect(formatRequest(base)).toBe('GET    /api/v4/projects?x=1 200 root 1.3 ms');
    expect(formatRequest({ ...base, method: 'DELETE', user: null, status: 404, noRoute: true })).toBe('DELETE /api/v4/projects?x=1 404 anonymous 1.3 ms (not emulated)');
    expect(formatRequest({ ...base, user: 'alice', sudoFrom: 'root' })).toBe('GET    /api/v4/projects?x=1 200 alice (sudo by root) 1.3 ms');
    expect(formatRequest({ ...base, status: 401, user: null, unknownToken: true })).toBe('GET    /api/v4/projects?x=1 401 anonymous 1.3 ms (token matches no user)');
    expect(formatRequest({ ...base, dropped: true, status: 0 })).toBe('GET    /api/v4/projects?x=1 dropped root 1.3 ms');
    expect(formatRequest(base, { colour: true })).toBe('\u001b[1mGET   \u001b[0m /api/v4/projects?x=1 \u001b[32m200\u001b[0m \u001b[2mroot\u001b[0m \u001b[2m1.3 ms\u001b[0m');
  });
});
