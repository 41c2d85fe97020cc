import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OUTPUT_FILE, readTemplates, renderModule } from '../scripts/build-templates.js';
import { GITIGNORE_TEMPLATES } from '../src/families/templates/data.js';
import { createEmulator } from '../src/index.js';

const api = (path: string, init: RequestInit = {}) => new Request(`https://gitlab.example.com/api/v4${path}`, init);

interface ListItem {
  key: string;
  name: string;
}

async function list(path: string): Promise<{ res: Response; body: ListItem[] }> {
  const e = await createEmulator();
  const res = await e.handle(api(path));
  return { res, body: (await res.json()) as ListItem[] };
}

describe('generated template data', () => {
  it('is up to date with fixtures/gitignore/ (run `npx tsx scripts/build-templates.ts`)', () => {
    expect(readFileSync(OUTPUT_FILE, 'utf8')).toBe(renderModule(readTemplates()));
  });

  it('holds a realistic set, each template opening with a comment line', () => {
    expect(GITIGNORE_TEMPLATES.length).toBeGreaterThanOrEqual(30);
    for (const t of GITIGNORE_TEMPLATES) {
      expect(t.key).toBe(t.name);
      expect(t.content.startsWith('# ')).toBe(true);
      expect(t.content.endsWith('\n')).toBe(true);
    }
  });

  it('lists the language templates by name, then the Global ones by name, byte-wise', () => {
    const names = GITIGNORE_TEMPLATES.map((t) => t.name);
    const global = names.indexOf('Backup');
    expect(global).toBeGreaterThan(0);
    const byBytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    expect(names.slice(0, global)).toEqual([...names.slice(0, global)].sort(byBytes));
    expect(names.slice(global)).toEqual([...names.slice(global)].sort(byBytes));
    // Upper case sorts before lower case: macOS is last among the Global templates.
    expect(names[names.length - 1]).toBe('macOS');
    expect(names.indexOf('C')).toBeLessThan(names.indexOf('C++'));
    expect(names.indexOf('C++')).toBeLessThan(names.indexOf('CMake'));
  });
});

describe('GET /templates/gitignores', () => {
  it('answers a page of {key, name} items with pagination headers', async () => {
    const { res, body } = await list('/templates/gitignores');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(body).toHaveLength(20);
    expect(body[0]).toEqual({ key: 'Android', name: 'Android' });
    for (const item of body) expect(Object.keys(item)).toEqual(['key', 'name']);
    const total = GITIGNORE_TEMPLATES.length;
    const pages = Math.ceil(total / 20);
    expect(res.headers.get('x-total')).toBe(String(total));
    expect(res.headers.get('x-total-pages')).toBe(String(pages));
    expect(res.headers.get('x-per-page')).toBe('20');
    expect(res.headers.get('x-page')).toBe('1');
    expect(res.headers.get('x-next-page')).toBe('2');
    expect(res.headers.get('x-prev-page')).toBe('');
    expect(res.headers.get('link')).toBe(
      [
        '<https://gitlab.example.com/api/v4/templates/gitignores?page=2&per_page=20>; rel="next"',
        '<https://gitlab.example.com/api/v4/templates/gitignores?page=1&per_page=20>; rel="first"',
        `<https://gitlab.example.com/api/v4/templates/gitignores?page=${pages}&per_page=20>; rel="last"`,
      ].join(', '),
    );
  });

  it('walks every template through page and per_page, ending with the Global ones', async () => {
    const { res, body } = await list('/templates/gitignores?per_page=100');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-next-page')).toBe('');
    expect(body.map((t) => t.key)).toEqual(GITIGNORE_TEMPLATES.map((t) => t.key));
    expect(body.map((t) => t.key)).toEqual(expect.arrayContaining(['Ruby', 'C++', 'Node', 'macOS', 'VisualStudioCode']));

    const second = await list('/templates/gitignores?page=2&per_page=5');
    expect(second.body.map((t) => t.key)).toEqual(GITIGNORE_TEMPLATES.slice(5, 10).map((t) => t.key));
    expect(second.res.headers.get('x-prev-page')).toBe('1');
    expect(second.res.headers.get('x-next-page')).toBe('3');
  });

  it('answers [] past the last page', async () => {
    const { res, body } = await list('/templates/gitignores?page=99');
    expect(res.status).toBe(200);
    expect(body).toEqual([]);
    expect(res.headers.get('x-next-page')).toBe('');
    expect(res.headers.get('x-prev-page')).toBe('');
  });

  it('rejects a page that is not an integer', async () => {
    const e = await createEmulator();
    const res = await e.handle(api('/templates/gitignores?page=abc'));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'page is invalid' });
  });

  it('needs no credentials and ignores a bad token', async () => {
    const e = await createEmulator();
    const cases: Record<string, string>[] = [{}, { 'PRIVATE-TOKEN': 'garbage' }, { Authorization: 'Bearer garbage' }];
    for (const headers of cases) {
      const res = await e.handle(api('/templates/gitignores', { headers }));
      expect(res.status).toBe(200);
    }
    const res = await e.handle(api('/templates/gitignores?private_token=garbage'));
    expect(res.status).toBe(200);
  });

  it('answers the same with a trailing slash', async () => {
    const { res, body } = await list('/templates/gitignores/');
    expect(res.status).toBe(200);
    expect(body).toHaveLength(20);
    expect(body[0]).toEqual({ key: 'Android', name: 'Android' });
  });
});

describe('GET /templates/gitignores/:key', () => {
  it('answers {name, content} for a language template', async () => {
    const e = await createEmulator();
    const res = await e.handle(api('/templates/gitignores/Ruby'));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['name', 'content']);
    expect(body.name).toBe('Ruby');
    expect(body.content).toContain('*.gem');
    expect(body.content).toBe(GITIGNORE_TEMPLATES.find((t) => t.key === 'Ruby')!.content);
  });

  it('finds a Global template by its bare name', async () => {
    const e = await createEmulator();
    const res = await e.handle(api('/templates/gitignores/macOS'));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: 'macOS', content: expect.stringContaining('.DS_Store') });
  });

  it('answers 404 gitignore Not Found for an unknown key, case-sensitively', async () => {
    const e = await createEmulator();
    for (const key of ['Cobol-On-Wheels', 'ruby', 'Ruby.json', 'Global']) {
      const res = await e.handle(api(`/templates/gitignores/${key}`));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: '404 gitignore Not Found' });
    }
  });

  it('does not reach the endpoint for a key outside [\\w.-], as GitLab\'s route requirement', async () => {
    const e = await createEmulator();
    for (const key of ['C++', 'C%2B%2B', 'Global%2FmacOS', 'R%75by']) {
      const res = await e.handle(api(`/templates/gitignores/${key}`));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: '404 Not Found' });
    }
  });

  it('needs no credentials, ignores a bad token and accepts a trailing slash', async () => {
    const e = await createEmulator();
    const anonymous = await e.handle(api('/templates/gitignores/Node'));
    expect(anonymous.status).toBe(200);
    const garbage = await e.handle(api('/templates/gitignores/Node', { headers: { 'PRIVATE-TOKEN': 'garbage' } }));
    expect(garbage.status).toBe(200);
    const slash = await e.handle(api('/templates/gitignores/Node/'));
    expect(slash.status).toBe(200);
    expect(await slash.json()).toMatchObject({ name: 'Node' });
  });

  it('answers HEAD like GET, without a body', async () => {
    const e = await createEmulator();
    const res = await e.handle(api('/templates/gitignores/Go', { method: 'HEAD' }));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});
