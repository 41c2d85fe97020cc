// A property: after random sequences of creates, updates and deletes of wiki pages (titles with
// spaces, slashes, dots and mixed case), the wiki's list, each page read in any case, and each
// earlier version agree with a plain model of GitLab's title rules.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { wikiHeadCommit } from './support/world.js';

const FIXTURE: Fixture = {
  users: [{ username: 'root', admin: true, tokens: [{ token: 'root-token' }] }],
  groups: [{ path: 'acme', visibility: 'public' }],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'public' }],
};

const FORMATS = ['markdown', 'rdoc', 'asciidoc', 'org'] as const;
const EXT = { markdown: 'md', rdoc: 'rdoc', asciidoc: 'asciidoc', org: 'org' } as const;
type Format = (typeof FORMATS)[number];

/** The model: File.expand_path against the root, each component squished, spaces to dashes. */
function modelSlug(title: string): string {
  const parts: string[] = [];
  for (const raw of title.split('/')) {
    const p = raw.trim().replace(/\s+/g, ' ');
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return parts.join('/').replace(/ /g, '-');
}

interface ModelPage { slug: string; format: Format; content: string }

const title = fc
  .array(fc.constantFrom('a', 'B', 'b', 'A', ' ', '/', '.', '..', 'x y'), { minLength: 1, maxLength: 5 })
  .map((parts) => parts.join(''));
const op = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), title, format: fc.constantFrom(...FORMATS), content: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), content: fc.string({ maxLength: 8 }), format: fc.option(fc.constantFrom(...FORMATS), { nil: undefined }) }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
);

describe('wiki pages against a plain model', () => {
  it('list, reads in any case and earlier versions agree with the model', async () => {
    const emulator = await createEmulator({ fixture: FIXTURE, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const seeded = emulator.snapshot();
    const send = async (method: string, path: string, json?: unknown) => {
      const res = await emulator.handle(
        new Request(`https://gitlab.example.com/api/v4/projects/acme%2Fapp${path}`, {
          method,
          headers: { 'PRIVATE-TOKEN': 'root-token', ...(json ? { 'Content-Type': 'application/json' } : {}) },
          body: json ? JSON.stringify(json) : undefined,
        }),
      );
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 8 }), async (ops) => {
        emulator.restore(seeded);
        const model = new Map<string, ModelPage>();
        const versions: { sha: string; pages: Map<string, ModelPage> }[] = [];
        for (const o of ops) {
          const pages = [...model.values()];
          if (o.kind === 'create') {
            const slug = modelSlug(o.title);
            const res = await send('POST', '/wikis', { title: o.title, content: o.content, format: o.format });
            if (slug === '' || model.has(slug.toLowerCase())) {
              expect(res.status).toBe(400);
              continue;
            }
            expect(res.status).toBe(201);
            expect(res.body).toMatchObject({ slug, format: o.format, content: o.content });
            model.set(slug.toLowerCase(), { slug, format: o.format, content: o.content });
          } else if (pages.length === 0) {
            continue;
          } else {
            const page = pages[o.pick % pages.length]!;
            const path = `/wikis/${encodeURIComponent(page.slug)}`;
            if (o.kind === 'update') {
              const res = await send('PUT', path, { content: o.content, ...(o.format ? { format: o.format } : {}) });
              expect(res.status).toBe(200);
              model.set(page.slug.toLowerCase(), { ...page, content: o.content, format: o.format ?? page.format });
            } else {
              expect((await send('DELETE', path)).status).toBe(204);
              model.delete(page.slug.toLowerCase());
            }
          }
          versions.push({ sha: (await wikiHeadCommit(emulator, 'project', 'acme/app'))!.sha, pages: new Map(model) });
        }
        const expected = [...model.values()].sort((a, b) => {
          const pa = `${a.slug}.${EXT[a.format]}`;
          const pb = `${b.slug}.${EXT[b.format]}`;
          return pa < pb ? -1 : pa > pb ? 1 : 0;
        });
        const list = await send('GET', '/wikis?with_content=true');
        expect(list.body.map((p: ModelPage) => [p.slug, p.format, p.content])).toEqual(expected.map((p) => [p.slug, p.format, p.content]));
        for (const p of expected) {
          const read = await send('GET', `/wikis/${encodeURIComponent(p.slug.toUpperCase())}`);
          expect([read.status, read.body.slug]).toEqual([200, p.slug]);
        }
        for (const v of versions) {
          for (const p of v.pages.values()) {
            const read = await send('GET', `/wikis/${encodeURIComponent(p.slug)}?version=${v.sha}`);
            expect([read.status, read.body.content, read.body.format]).toEqual([200, p.content, p.format]);
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});
