import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';

const api = (path: string, init: RequestInit = {}) => new Request(`https://gitlab.example.com/api/v4${path}`, init);

describe('the default world', () => {
  it('answers GET /user for the documented admin token', async () => {
    const e = await createEmulator();
    const res = await e.handle(api('/user', { headers: { 'PRIVATE-TOKEN': 'glpat-emulator-root-token' } }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ username: 'root', is_admin: true });
  });

  it('hides the private project from anonymous callers with 404, never 403', async () => {
    const e = await createEmulator();
    const res = await e.handle(api('/projects/acme%2Fsecrets'));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: '404 Project Not Found' });
  });
});
