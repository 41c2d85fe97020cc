// A property: after random sequences of awards and take-backs on a project snippet by several
// users (aliases, a name that is no emoji, a second award of the same emoji, someone else's
// award, an administrator), each answer's status and the snippet's award list agree with a
// plain model of AwardEmojis::AddService's uniqueness and award_emoji.rb's delete rule.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { ACME, TEAM, apiCall, teamProject } from './support/world.js';

const NAMES: Record<string, string | null> = { thumbsup: 'thumbsup', '+1': 'thumbsup', tada: 'tada', party_popper: 'tada', bogus_name: null };
const TOKENS = { dev: 'dev-token', rep: 'reporter-token', root: 'root-token' } as const;
type Who = keyof typeof TOKENS;
type Op = { kind: 'award'; who: Who; name: string } | { kind: 'delete'; who: Who; pick: number };

const who = fc.constantFrom<Who>('dev', 'rep', 'root');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('award' as const), who, name: fc.constantFrom(...Object.keys(NAMES)) }),
  fc.record({ kind: fc.constant('delete' as const), who, pick: fc.nat(5) }),
);

describe('award emoji on a project snippet (property)', () => {
  it('statuses and the award list follow the model', async () => {
    const emulator = await createEmulator({
      clock: { now: '2024-05-02T09:00:00Z', frozen: true },
      fixture: { users: TEAM, groups: [ACME], projects: [teamProject({ snippets: [{ title: 'S', author: 'dev', visibility: 'private', files: [{ path: 'a', content: 'a' }] }] })] },
    });
    const seeded = emulator.snapshot();
    const call = async (method: string, path: string, token: string, json?: unknown) => {
      const res = await apiCall(emulator, path, { method, token, json });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const sid = (await call('GET', '/projects/acme%2Fapp/snippets', 'root-token')).body[0].id;
    const base = `/projects/acme%2Fapp/snippets/${sid}/award_emoji`;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops) => {
        emulator.restore(seeded);
        const model: { id: number; who: Who; name: string }[] = [];
        for (const o of ops) {
          if (o.kind === 'award') {
            const res = await call('POST', base, TOKENS[o.who], { name: o.name });
            const name = NAMES[o.name] ?? null;
            if (name === null) expect(res).toEqual({ status: 404, body: { message: '404 Award Emoji Name is not a valid emoji name Not Found' } });
            else if (model.some((a) => a.who === o.who && a.name === name)) expect(res).toEqual({ status: 404, body: { message: '404 Award Emoji User has already been taken Not Found' } });
            else {
              expect(res.status).toBe(201);
              expect(res.body.name).toBe(name);
              model.push({ id: res.body.id, who: o.who, name });
            }
          } else {
            const target = model[o.pick % Math.max(1, model.length)];
            const res = await call('DELETE', `${base}/${target?.id ?? 999999}`, TOKENS[o.who]);
            if (!target) expect(res.status).toBe(404);
            else if (target.who === o.who || o.who === 'root') {
              expect(res.status).toBe(204);
              model.splice(model.indexOf(target), 1);
            } else expect(res).toEqual({ status: 401, body: { message: '401 Unauthorized' } });
          }
          const list = (await call('GET', base, 'reporter-token')).body as { id: number; name: string; user: { username: string } }[];
          expect(list.map((a) => [a.id, a.user.username, a.name])).toEqual(model.map((a) => [a.id, a.who, a.name]));
        }
      }),
      { numRuns: 40 },
    );
  });
});
