// Project variables as a state machine against a plain model: for any sequence of creates,
// updates, deletes and reads over a few keys and scopes, the answers (201/400, 200/404/409) and
// the list are the model's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';

const KEYS = ['A', 'B', '__proto__'] as const;
const SCOPES = ['*', 'production', 'review/*'] as const;

type Op =
  | { kind: 'create'; key: string; scope: string; value: string }
  | { kind: 'update' | 'delete' | 'get'; key: string; scope: string | null; value: string };

const op: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom('create', 'update', 'delete', 'get'),
  key: fc.constantFrom(...KEYS),
  scope: fc.option(fc.constantFrom(...SCOPES), { nil: null }),
  value: fc.stringMatching(/^[a-z]{1,6}$/),
}).map((o) => (o.kind === 'create' ? { ...o, kind: 'create', scope: o.scope ?? '*' } : o) as Op);

async function call(e: Emulator, method: string, path: string, json?: unknown): Promise<{ status: number; body: any }> {
  const res = await e.handle(
    new Request(`https://gitlab.example.com/api/v4/projects/acme%2Fapp${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': 'mai-token', ...(json ? { 'Content-Type': 'application/json' } : {}) },
      body: json ? JSON.stringify(json) : undefined,
    }),
  );
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe('project variables against a model', () => {
  it('answer and list as the model says, for any sequence', async () => {
    const base = await createEmulator({
      fixture: {
        users: [{ username: 'mai', tokens: [{ token: 'mai-token' }] }],
        groups: [{ path: 'acme', members: [{ user: 'mai', access_level: 'maintainer' }] }],
        projects: [{ namespace: 'acme', path: 'app' }],
      },
    });
    const start = base.snapshot();
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 20 }), async (ops) => {
        base.restore(start);
        const model: { key: string; scope: string; value: string }[] = [];
        const matching = (key: string, scope: string | null) => model.filter((v) => v.key === key && (scope === null || v.scope === scope));
        for (const o of ops) {
          const filter = o.scope === null ? '' : `?filter[environment_scope]=${encodeURIComponent(o.scope)}`;
          if (o.kind === 'create') {
            const r = await call(base, 'POST', '/variables', { key: o.key, value: o.value, environment_scope: o.scope });
            if (matching(o.key, o.scope).length) {
              expect(r).toEqual({ status: 400, body: { message: { key: [`(${o.key}) has already been taken`] } } });
            } else {
              expect(r.status).toBe(201);
              model.push({ key: o.key, scope: o.scope, value: o.value });
            }
            continue;
          }
          const found = matching(o.key, o.scope);
          const path = `/variables/${encodeURIComponent(o.key)}${filter}`;
          const r = o.kind === 'get' ? await call(base, 'GET', path) : o.kind === 'delete' ? await call(base, 'DELETE', path) : await call(base, 'PUT', path, { value: o.value });
          if (found.length === 0) expect(r.status).toBe(404);
          else if (found.length > 1) expect(r.status).toBe(409);
          else {
            const v = found[0]!;
            if (o.kind === 'delete') {
              expect(r.status).toBe(204);
              model.splice(model.indexOf(v), 1);
            } else {
              if (o.kind === 'update') v.value = o.value;
              expect(r.body).toMatchObject({ key: v.key, environment_scope: v.scope, value: v.value });
            }
          }
        }
        const list = await call(base, 'GET', '/variables?per_page=100');
        expect(list.body.map((v: { key: string; environment_scope: string; value: string }) => [v.key, v.environment_scope, v.value])).toEqual(
          model.map((v) => [v.key, v.scope, v.value]),
        );
      }),
      { numRuns: 60 },
    );
  });
});
