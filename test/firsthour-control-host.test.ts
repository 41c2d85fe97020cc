// Behind a container name (docker compose, CI services) requests carry `Host: gitlab:8080`. With a
// control token configured the token is the check: the control API answers such a request that
// sends it, and refuses (401) one that does not. Without a token the foreign Host stays refused.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Server } from '../src/index.js';

function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(controlToken?: string) {
  const e = await createEmulator(controlToken ? { controlToken } : {});
  const server = await e.listen({ port: 0 });
  servers.push(server);
  return server.port;
}

describe('the control API behind a container host name', () => {
  it('answers Host gitlab:8080 with the right control token (Bearer or X-Emulator-Token)', async () => {
    const port = await serve('s3cret');
    const bearer = await get(port, '/-/emulator/clock', { Host: 'gitlab:8080', Authorization: 'Bearer s3cret' });
    expect(bearer.status).toBe(200);
    expect(JSON.parse(bearer.body)).toHaveProperty('now');
    const header = await get(port, '/-/emulator/world', { Host: 'gitlab:8080', 'X-Emulator-Token': 's3cret' });
    expect(header.status).toBe(200);
  });

  it('refuses Host gitlab:8080 without the token, or with a wrong one, as it refuses any client', async () => {
    const port = await serve('s3cret');
    const none = await get(port, '/-/emulator/clock', { Host: 'gitlab:8080' });
    const wrong = await get(port, '/-/emulator/clock', { Host: 'gitlab:8080', Authorization: 'Bearer nope' });
    const local = await get(port, '/-/emulator/clock', { Host: `127.0.0.1:${port}` });
    expect([none.status, wrong.status]).toEqual([local.status, local.status]);
    expect(none.status).toBe(401);
  });

  it('still refuses a cross-site Origin with the token', async () => {
    const port = await serve('s3cret');
    const res = await get(port, '/-/emulator/clock', { Host: 'gitlab:8080', Authorization: 'Bearer s3cret', Origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });

  it('without a control token, refuses a foreign Host and says how to allow it', async () => {
    const port = await serve();
    const res = await get(port, '/-/emulator/clock', { Host: 'gitlab:8080' });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).message).toMatch(/--control-token/);
    expect((await get(port, '/-/emulator/clock', { Host: `localhost:${port}` })).status).toBe(200);
  });

  it('the API itself answers a foreign Host either way', async () => {
    const port = await serve('s3cret');
    expect((await get(port, '/api/v4/projects', { Host: 'gitlab:8080' })).status).toBe(200);
  });
});
