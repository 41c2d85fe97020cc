// Properties against plain models: a board's label lists under any sequence of placing, moving
// and removing (Boards::Lists::MoveService keeps positions 0..n-1 in the model's order), and the
// keys API's fingerprints against node's own hashes of any key body.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, TEAM, apiCall, teamProject } from './support/world.js';

const LABELS = ['a', 'b', 'c', 'd', 'e'];
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [teamProject({ labels: LABELS.map((name) => ({ name, color: '#123456' })) } as never)],
};
const APP = '/projects/acme%2Fapp';

type Op = { kind: 'add'; label: number } | { kind: 'move'; at: number; to: number } | { kind: 'remove'; at: number };
const op = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), label: fc.nat(LABELS.length - 1) }),
  fc.record({ kind: fc.constant('move' as const), at: fc.nat(6), to: fc.integer({ min: -1, max: 6 }) }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat(6) }),
);

describe('board lists', () => {
  it('follow a plain array under any sequence of placing, moving and removing', async () => {
    const e = await createEmulator({ fixture: FIXTURE, clock: { now: '2026-05-04T10:00:00Z', frozen: true } });
    const seeded = e.snapshot();
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops: Op[]) => {
        e.restore(seeded);
        const call = (path: string, init: { method?: string; json?: unknown } = {}) => apiCall(e, path, { token: 'root-token', ...init });
        const labels: { id: number; name: string }[] = await (await call(`${APP}/labels`)).json();
        const idOf = (name: string) => labels.find((l) => l.name === name)!.id;
        await call(`${APP}/boards`, { method: 'POST', json: { name: 'b' } });
        let model: string[] = [];
        for (const o of ops) {
          const lists: { id: number; label: { name: string } }[] = await (await call(`${APP}/boards/1/lists`)).json();
          if (o.kind === 'add') {
            const name = LABELS[o.label]!;
            const res = await call(`${APP}/boards/1/lists`, { method: 'POST', json: { label_id: idOf(name) } });
            if (model.includes(name)) expect(res.status).toBe(400);
            else (expect(res.status).toBe(201), model.push(name));
          } else if (o.at < lists.length) {
            const list = lists[o.at]!;
            if (o.kind === 'remove') {
              expect((await call(`${APP}/boards/1/lists/${list.id}`, { method: 'DELETE' })).status).toBe(204);
              model = model.filter((n) => n !== list.label.name);
            } else {
              const res = await call(`${APP}/boards/1/lists/${list.id}`, { method: 'PUT', json: { position: o.to } });
              const valid = o.to >= 0 && o.to < model.length && o.to !== o.at;
              expect(res.status).toBe(valid ? 200 : 400);
              if (valid) {
                model.splice(o.at, 1);
                model.splice(o.to, 0, list.label.name);
              }
            }
          }
          const now: { position: number; label: { name: string } }[] = await (await call(`${APP}/boards/1/lists`)).json();
          expect(now.map((l) => l.label.name)).toEqual(model);
          expect(now.map((l) => l.position)).toEqual(model.map((_, i) => i));
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('key fingerprints', () => {
  it('are the SHA-256 and MD5 of the key body, as ssh-keygen prints them', async () => {
    const e = await createEmulator({ fixture: { users: TEAM, groups: [ACME], projects: [teamProject()] }, clock: { now: '2026-05-04T10:00:00Z', frozen: true } });
    const seeded = e.snapshot();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 300 }), async (bytes) => {
        e.restore(seeded);
        const body = Buffer.from(bytes);
        const key = `ssh-ed25519 ${body.toString('base64')} any@host`;
        const res = await apiCall(e, `${APP}/deploy_keys`, { method: 'POST', token: 'root-token', json: { title: 't', key } });
        expect(res.status).toBe(201);
        const made = await res.json();
        expect(made.fingerprint_sha256).toBe(`SHA256:${createHash('sha256').update(body).digest('base64').replace(/=+$/, '')}`);
        expect(made.fingerprint).toBe(createHash('md5').update(body).digest('hex').match(/../g)!.join(':'));
        const found = await apiCall(e, `/keys?fingerprint=${encodeURIComponent(made.fingerprint_sha256)}`, { token: 'root-token' });
        expect((await found.json()).id).toBe(made.id);
      }),
      { numRuns: 30 },
    );
  });
});
