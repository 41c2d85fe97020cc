// The node:http door against slow clients: a request whose body never comes holds up no other
// write, and the server drops a stalled client after its timeouts (tens of seconds by default,
// options of listen()). Raw sockets, since fetch always sends the whole body.
import { connect, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Server } from '../src/index.js';

const fixture: Fixture = {
  users: [{ username: 'alice', tokens: [{ token: 'alice-token' }] }],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'alice', access_level: 'owner' }] }],
  projects: [{ namespace: 'acme', path: 'website', visibility: 'public' }],
};

let gitlab: Emulator;
let server: Server | undefined;
const sockets: Socket[] = [];

beforeEach(async () => {
  gitlab = await createEmulator({ fixture, clock: { now: '2030-01-01T00:00:00Z', frozen: true } });
});

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await server?.close();
  server = undefined;
});

/** A socket that has sent `head` (request line and headers) and then nothing; resolves once connected. */
async function stalled(port: number, head: string): Promise<{ socket: Socket; closed: Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(head);
  return { socket, closed };
}

const within = <T>(ms: number, p: Promise<T>, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms))]);

describe('a client that never sends its body', () => {
  it('does not delay another client’s write, and stays open meanwhile', async () => {
    server = await gitlab.listen({ port: 0 });
    const { socket, closed } = await stalled(
      server.port,
      'PUT /api/v4/projects/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nPRIVATE-TOKEN: alice-token\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n',
    );
    let stalledClosed = false;
    void closed.then(() => (stalledClosed = true));
    await new Promise((r) => setTimeout(r, 50)); // the stalled request has reached the emulator

    const started = Date.now();
    const res = await within(
      2_000,
      fetch(`${server.url}/api/v4/projects`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': 'alice-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Meanwhile' }),
      }),
      'a write beside a stalled body',
    );
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(2_000);
    // A second write, to show the lock is free, not merely taken once.
    const again = await within(2_000, fetch(`${server.url}/api/v4/projects/1`, {
      method: 'PUT',
      headers: { 'PRIVATE-TOKEN': 'alice-token', 'Content-Type': 'application/json' },
      body: JSON.stringify({ description: 'changed while another PUT stalls' }),
    }), 'a second write');
    expect(again.status).toBe(200);
    expect(stalledClosed).toBe(false);
    expect(socket.destroyed).toBe(false);
  });

  it('is answered 408 and dropped after requestTimeout', async () => {
    server = await gitlab.listen({ port: 0, requestTimeout: 300, headersTimeout: 200 });
    const started = Date.now();
    const { closed } = await stalled(server.port, 'PUT /api/v4/projects/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n');
    const received = await within(3_000, closed, 'dropping the stalled client');
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    // The emulator serves on.
    expect((await fetch(`${server.url}/api/v4/projects/1`)).status).toBe(200);
  });

  it('a client that never finishes its headers is dropped after headersTimeout', async () => {
    server = await gitlab.listen({ port: 0, requestTimeout: 5_000, headersTimeout: 200 });
    const { closed } = await stalled(server.port, 'GET /api/v4/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(await within(3_000, closed, 'dropping the client')).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe('the server’s timeouts', () => {
  it('are tens of seconds at most by default, as the node server has them', async () => {
    server = await gitlab.listen({ port: 0 });
    expect(server.timeouts).toEqual({ headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 });
  });

  it('are options of listen()', async () => {
    server = await gitlab.listen({ port: 0, headersTimeout: 1_000, requestTimeout: 2_000, keepAliveTimeout: 500 });
    expect(server.timeouts).toEqual({ headersTimeout: 1_000, requestTimeout: 2_000, keepAliveTimeout: 500 });
  });

  it('a requestTimeout shorter than the default headersTimeout bounds the headers too', async () => {
    server = await gitlab.listen({ port: 0, requestTimeout: 4_000 });
    expect(server.timeouts).toMatchObject({ headersTimeout: 4_000, requestTimeout: 4_000 });
  });

  it.each([
    [{ requestTimeout: 0 }, /requestTimeout must be a positive number/],
    [{ headersTimeout: -1 }, /headersTimeout must be a positive number/],
    [{ keepAliveTimeout: Number.NaN }, /keepAliveTimeout must be a positive number/],
    [{ headersTimeout: 5_000, requestTimeout: 1_000 }, /headersTimeout \(5000\) must not be longer than requestTimeout/],
  ])('refuses %o', async (options, message) => {
    await expect(gitlab.listen({ port: 0, ...options })).rejects.toThrow(message);
  });

  it('closes an idle keep-alive connection after keepAliveTimeout', async () => {
    server = await gitlab.listen({ port: 0, keepAliveTimeout: 200 });
    const { closed } = await stalled(server.port, 'GET /api/v4/projects/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const started = Date.now();
    const received = await within(3_000, closed, 'closing the idle connection');
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(Date.now() - started).toBeLessThan(2_500);
  });
});
