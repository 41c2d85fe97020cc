// Routes the emulator does not implement: GitLab's 404 body, marked by a header and in the
// journal; `onUnknownRoute: 'error'` fails loudly; `GET /-/emulator` lists what is emulated; the
// request log (off in the library unless asked) names them.
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmulator, type RequestEvent } from '../src/index.js';
import { handlers } from '../src/msw.js';
import { ORIGIN } from './support/world.js';

const get = (path: string, headers: Record<string, string> = {}) => new Request(`${ORIGIN}${path}`, { headers });

describe('a path no route matches', () => {
  it('answers GitLab 404 body with X-Gitlab-Emulator: no-route, and the journal marks it', async () => {
    const e = await createEmulator();
    const res = await e.handle(get('/api/v4/projects/1/no_such_thing'));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: '404 Not Found' });
    expect(res.headers.get('x-gitlab-emulator')).toBe('no-route');
    expect(e.journal.last()).toMatchObject({ path: '/api/v4/projects/1/no_such_thing', status: 404, noRoute: true });
  });

  it('marks a web path no route matches too, but not a route that exists and answers 404', async () => {
    const e = await createEmulator();
    const web = await e.handle(get('/acme/website/-/no-such-page'));
    expect(web.status).toBe(404);
    expect(web.headers.get('x-gitlab-emulator')).toBe('no-route');
    const missing = await e.handle(get('/api/v4/projects/999999'));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: '404 Project Not Found' });
    expect(missing.headers.get('x-gitlab-emulator')).toBeNull();
    expect(e.journal.last()?.noRoute).toBeUndefined();
  });

  it('a route above the instance tier is GitLab 404, not "not emulated"', async () => {
    const e = await createEmulator({ fixture: { instance: { tier: 'free' } }, onUnknownRoute: 'error' });
    const tiered = e.routes().find((r) => r.tier === 'premium' || r.tier === 'ultimate');
    expect(tiered).toBeDefined();
    const path = tiered!.path.replace(/:\w+/g, '1').replace(/\*\w*/g, 'x');
    const res = await e.handle(new Request(`${ORIGIN}${path}`, { method: tiered!.method, headers: { 'PRIVATE-TOKEN': 'x' } }));
    expect(res.status).toBe(404);
    expect(res.headers.get('x-gitlab-emulator')).toBeNull();
  });

  it("onUnknownRoute: 'error' makes handle reject, naming the request, after answering nothing", async () => {
    const e = await createEmulator({ onUnknownRoute: 'error' });
    await expect(e.handle(get('/api/v4/not/emulated'))).rejects.toThrow(/GET \/api\/v4\/not\/emulated is not emulated/);
    // Routes that exist still answer, whatever their status.
    expect((await e.handle(get('/api/v4/projects/999999'))).status).toBe(404);
    expect(e.journal.last()?.status).toBe(404);
  });

  it("onUnknownRoute: 'error' fails a fetch through the MSW door", async () => {
    const e = await createEmulator({ onUnknownRoute: 'error' });
    const server = setupServer(...handlers(e));
    server.listen({ onUnhandledRequest: 'error' });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const ok = await fetch(`${ORIGIN}/api/v4/projects`);
      expect(ok.status).toBe(200);
      const res = await fetch(`${ORIGIN}/api/v4/not/emulated`).catch((err: unknown) => err);
      // MSW turns an exception of a handler into a 500 that names it.
      expect(res instanceof Response ? `${res.status} ${await res.text()}` : String(res)).toMatch(/500.*is not emulated|is not emulated/s);
    } finally {
      errors.mockRestore();
      server.close();
    }
  });

  it('through the server door: the header on GitLab 404, and with onUnknownRoute: error a 500 that fails the client', async () => {
    const quiet = await createEmulator();
    const loud = await createEmulator({ onUnknownRoute: 'error' });
    const [a, b] = await Promise.all([quiet.listen({ port: 0 }), loud.listen({ port: 0 })]);
    try {
      const res = await fetch(`${a.url}/api/v4/no/such/route`);
      expect([res.status, res.headers.get('x-gitlab-emulator'), await res.json()]).toEqual([404, 'no-route', { error: '404 Not Found' }]);
      expect((await fetch(`${b.url}/api/v4/projects`)).status).toBe(200);
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        expect((await fetch(`${b.url}/api/v4/no/such/route`)).status).toBe(500);
      } finally {
        errors.mockRestore();
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("onUnknownRoute: 'warn' warns and still answers GitLab's 404", async () => {
    const e = await createEmulator({ onUnknownRoute: 'warn' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect((await e.handle(get('/api/v4/nothing'))).status).toBe(404);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/GET \/api\/v4\/nothing is not emulated/));
    } finally {
      warn.mockRestore();
    }
  });

  it('GET /-/emulator lists every emulated route with its tier and offering', async () => {
    const e = await createEmulator();
    const res = await e.handle(get('/-/emulator'));
    const body = (await res.json()) as { emulated: { method: string; path: string }[]; instance: unknown };
    expect(body.instance).toEqual({ tier: 'ultimate', offering: 'self-managed' });
    expect(body.emulated).toContainEqual({ method: 'GET', path: '/api/v4/projects' });
    expect(body.emulated).toContainEqual({ method: 'POST', path: '/api/v4/projects/:id/repository/tags' });
    expect(body.emulated.length).toBe(e.routes().length);
    expect(new Set(body.emulated.map((r) => `${r.method} ${r.path}`)).size).toBe(body.emulated.length);
  });
});

describe('the request log', () => {
  const lines: string[] = [];
  const events: RequestEvent[] = [];
  afterEach(() => {
    lines.length = 0;
    events.length = 0;
  });

  it('is off in the library unless asked', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const e = await createEmulator();
      await e.handle(get('/api/v4/projects'));
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });

  it('log: true writes each line to console.log', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const e = await createEmulator({ log: true });
      await e.handle(get('/api/v4/projects'));
      expect(log).toHaveBeenCalledTimes(1);
      expect(String(log.mock.calls[0]![0])).toMatch(/GET.*\/api\/v4\/projects.*200.*anonymous.*ms/);
    } finally {
      log.mockRestore();
    }
  });

  it('gives one line per request: method, path, status, acting user (and sudo), milliseconds, and notes', async () => {
    const e = await createEmulator({ log: (line, event) => (lines.push(line), events.push(event)) });
    await e.handle(get('/api/v4/user', { 'PRIVATE-TOKEN': 'glpat-emulator-alice-token' }));
    await e.handle(get('/api/v4/user?sudo=alice', { 'PRIVATE-TOKEN': 'glpat-emulator-root-token' }));
    const denied = await e.handle(get('/api/v4/user', { 'PRIVATE-TOKEN': 'glpat-nobody' }));
    expect(await denied.json()).toEqual({ message: '401 Unauthorized' });
    expect(denied.headers.get('x-gitlab-emulator')).toBeNull(); // the note is in the log only
    await e.handle(get('/api/v4/user', { Authorization: 'Bearer glpat-nobody' }));
    await e.handle(get('/api/v4/nope'));
    await e.handle(get('/-/emulator/clock'));
    expect(lines[0]).toMatch(/^GET\s+\/api\/v4\/user 200 alice \d+\.\d ms$/);
    expect(lines[1]).toMatch(/^GET\s+\/api\/v4\/user\?sudo=alice 200 alice \(sudo by root\) \d+\.\d ms$/);
    expect(lines[2]).toMatch(/^GET\s+\/api\/v4\/user 401 anonymous \d+\.\d ms \(token matches no user\)$/);
    expect(lines[3]).toMatch(/\(token matches no user\)$/);
    expect(lines[4]).toMatch(/^GET\s+\/api\/v4\/nope 404 anonymous \d+\.\d ms \(not emulated\)$/);
    expect(lines[5]).toMatch(/^GET\s+\/-\/emulator\/clock 200 anonymous/);
    expect(events.map((x) => x.surface)).toEqual(['api-v4', 'api-v4', 'api-v4', 'api-v4', 'api-v4', 'control']);
    expect(lines.join('\n')).not.toMatch(/\u001b\[/);
  });

  it('does not call a revoked or expired token unknown: it matches a user', async () => {
    const e = await createEmulator({
      fixture: { users: [{ username: 'old', tokens: [{ token: 'old-token', revoked: true }] }] },
      log: (line) => lines.push(line),
    });
    expect((await e.handle(get('/api/v4/user', { 'PRIVATE-TOKEN': 'old-token' }))).status).toBe(401);
    expect(lines[0]).not.toMatch(/matches no user/);
  });

  it('is coloured when asked for a terminal', async () => {
    const { formatRequest } = await import('../src/http/request-log.js');
    const line = formatRequest({ method: 'GET', path: '/api/v4/x', status: 404, user: null, durationMs: 1, surface: 'api-v4', noRoute: true }, { colour: true });
    expect(line).toContain('\u001b[33m404\u001b[0m');
    expect(line).toContain('not emulated');
  });
});
