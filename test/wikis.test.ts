// Project and group wikis through `emulator.handle` (lib/api/wikis.rb, app/models/wiki.rb,
// app/models/wiki_page.rb, spec/support/shared_examples/requests/api/wikis_shared_examples.rb).
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { fileAt } from '../src/families/repositories/index.js';
import { tget } from '../src/store/table.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, idOf, seededWorld, teamProject, updateProject, wikiHeadCommit } from './support/world.js';

const FIXTURE: Fixture = {
  instance: { tier: 'premium' },
  users: TEAM,
  groups: [{ ...ACME, members: TEAM_MEMBERS }, { path: 'hidden', visibility: 'private' }],
  projects: [teamProject(), { namespace: 'acme', path: 'nowiki', visibility: 'public', creator: 'root' }],
};

const world = seededWorld(FIXTURE, '2024-03-01T10:00:00Z');
const APP = '/projects/acme%2Fapp';

async function call(method: string, path: string, token?: string, json?: unknown) {
  const res = await apiCall(world(), path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, res };
}

const create = (base: string, json: unknown, token = 'dev-token') => call('POST', `${base}/wikis`, token, json);

/** A file of a wiki's repository at its head, as a clone would read it. */
async function wikiFile(kind: 'project' | 'group', fullPath: string, path: string): Promise<string | undefined> {
  const e = world();
  const id = idOf(e, fullPath);
  const wiki = tget(kind === 'project' ? e.state.projectWikis : e.state.groupWikis, id)!;
  const repo = e.objects.repositoryIn(e.state, kind === 'project' ? id : -id);
  const entry = await fileAt(repo, wiki.head, path);
  return entry ? new TextDecoder().decode(await repo.readBlob(entry.oid)) : undefined;
}

describe.each([
  ['project', APP, 'acme/app'],
  ['group', '/groups/acme', 'acme'],
] as const)('%s wikis', (kind, base, fullPath) => {
  it('starts empty, creates a page with the slug of its title, and lists it', async () => {
    expect(await call('GET', `${base}/wikis`, 'guest-token')).toMatchObject({ status: 200, body: [] });
    const made = await create(base, { title: 'Hello World', content: 'Content for wiki page' });
    expect(made.status).toBe(201);
    expect(Object.keys(made.body)).toEqual(['format', 'slug', 'title', 'wiki_page_meta_id', 'content', 'encoding', 'front_matter']);
    expect(made.body).toMatchObject({ format: 'markdown', slug: 'Hello-World', title: 'Hello World', content: 'Content for wiki page', encoding: 'UTF-8', front_matter: {} });
    const list = await call('GET', `${base}/wikis`, 'guest-token');
    expect(list.body).toEqual([{ format: 'markdown', slug: 'Hello-World', title: 'Hello World', wiki_page_meta_id: made.body.wiki_page_meta_id }]);
    const withContent = await call('GET', `${base}/wikis?with_content=1`, 'guest-token');
    expect(withContent.body).toEqual([made.body]);
  });

  it('commits each change with the caller as author; `version` reads an earlier revision', async () => {
    await create(base, { title: 'Page', content: 'first' });
    const first = (await wikiHeadCommit(world(), kind, fullPath))!;
    expect(first).toMatchObject({ message: 'dev created page: Page', author: { name: 'Dee Veloper', email: 'dev@example.com' }, parents: [] });
    const put = await call('PUT', `${base}/wikis/Page`, 'maintainer-token', { content: 'second' });
    expect(put).toMatchObject({ status: 200, body: { slug: 'Page', content: 'second' } });
    const second = (await wikiHeadCommit(world(), kind, fullPath))!;
    expect(second).toMatchObject({ message: 'mai updated page: Page', author: { name: 'Mai Ntainer' }, parents: [first.sha] });
    expect((await call('GET', `${base}/wikis/Page`, 'guest-token')).body.content).toBe('second');
    expect((await call('GET', `${base}/wikis/Page?version=${first.sha}`, 'guest-token')).body.content).toBe('first');
    for (const v of ['foobar', '0'.repeat(40)]) {
      expect(await call('GET', `${base}/wikis/Page?version=${v}`, 'guest-token')).toMatchObject({ status: 404, body: { message: '404 Wiki Page Not Found' } });
    }
  });

  it('finds pages without regard to case, and by the title with spaces', async () => {
    await create(base, { title: 'dir/My Page', content: 'x', format: 'rdoc' });
    for (const slug of ['dir%2FMy-Page', 'DIR%2Fmy-page', 'dir%2FMy%20Page']) {
      expect(await call('GET', `${base}/wikis/${slug}`, 'guest-token')).toMatchObject({ status: 200, body: { slug: 'dir/My-Page', title: 'My Page', format: 'rdoc' } });
    }
    expect(await call('GET', `${base}/wikis/nope`, 'guest-token')).toMatchObject({ status: 404, body: { message: '404 Wiki Page Not Found' } });
  });

  it('takes a slug with a plain `/` (requirements slug: /.+/) for GET, PUT and DELETE', async () => {
    await create(base, { title: 'dir/sub/My Page', content: 'deep' });
    for (const slug of ['dir/sub/My-Page', 'dir%2Fsub%2FMy-Page', 'dir/sub%2Fmy-page', 'dir/sub/My%20Page']) {
      expect(await call('GET', `${base}/wikis/${slug}`, 'guest-token')).toMatchObject({ status: 200, body: { slug: 'dir/sub/My-Page', title: 'My Page', content: 'deep' } });
    }
    expect(await call('GET', `${base}/wikis/dir/sub/Other`, 'guest-token')).toMatchObject({ status: 404, body: { message: '404 Wiki Page Not Found' } });
    const put = await call('PUT', `${base}/wikis/dir/sub/My-Page`, 'dev-token', { content: 'deeper' });
    expect(put).toMatchObject({ status: 200, body: { slug: 'dir/sub/My-Page', content: 'deeper' } });
    expect((await call('GET', `${base}/wikis/dir/sub/My-Page?render_html=true`, 'guest-token')).body.content).toContain('deeper</p>');
    expect((await call('DELETE', `${base}/wikis/dir/sub/My-Page`, 'dev-token')).status).toBe(403);
    expect((await call('DELETE', `${base}/wikis/dir/sub/My-Page`, 'maintainer-token')).status).toBe(204);
    expect((await call('GET', `${base}/wikis/dir/sub/My-Page`, 'guest-token')).status).toBe(404);
    expect((await call('DELETE', `${base}/wikis/dir/sub/My-Page`, 'maintainer-token')).status).toBe(404);
    // A trailing slash is dropped, as for every route.
    await create(base, { title: 'a/b', content: 'x' });
    expect((await call('GET', `${base}/wikis/a/b/`, 'guest-token')).body.slug).toBe('a/b');
  });

  it('normalises paths: squished components, `..` and `.` resolved, empty components dropped', async () => {
    const made = await create(base, { title: '  foo  /  bar  baz ', content: '' });
    expect(made.body).toMatchObject({ slug: 'foo/bar-baz', title: 'bar baz', content: '' });
    expect((await create(base, { title: '/a/./b/../c//Page', content: 'x' })).body.slug).toBe('a/c/Page');
  });

  it('refuses a duplicate title in any case or format, and bad input, changing nothing', async () => {
    await create(base, { title: 'Guide', content: 'x' });
    const head = await wikiHeadCommit(world(), kind, fullPath);
    expect(await create(base, { title: 'guide', content: 'y', format: 'org' })).toMatchObject({
      status: 400,
      body: { message: { base: ['Duplicate page: A page with that title already exists in the file Guide.md'] } },
    });
    expect(await create(base, { content: 'x' })).toMatchObject({ status: 400, body: { message: '400 Bad request - "title" not given' } });
    expect(await create(base, { title: 'x' })).toMatchObject({ status: 400, body: { message: '400 Bad request - "content" not given' } });
    expect(await create(base, { title: 'x', content: 'x', format: 'html' })).toMatchObject({ status: 400, body: { error: 'format does not have a valid value' } });
    expect(await create(base, { title: `${'a'.repeat(246)}`, content: 'x' })).toMatchObject({ status: 400, body: { message: { title: ['exceeds the limit of 245 bytes'] } } });
    const dir = 'd'.repeat(256);
    expect(await create(base, { title: `${dir}/page`, content: 'x' })).toMatchObject({
      status: 400,
      body: { message: { title: [`exceeds the limit of 255 bytes for directory name "${dir}"`] } },
    });
    // Bytes, not characters: 123 two-byte characters are 246 bytes.
    expect((await create(base, { title: 'é'.repeat(123), content: 'x' })).status).toBe(400);
    expect(await wikiHeadCommit(world(), kind, fullPath)).toEqual(head);
  });

  it('updates title, content and format; without title or content a 400; a taken title is refused', async () => {
    await create(base, { title: 'dir/One', content: 'one' });
    await create(base, { title: 'Two', content: 'two' });
    for (const json of [{}, { format: 'rdoc' }]) {
      expect(await call('PUT', `${base}/wikis/Two`, 'dev-token', json)).toMatchObject({
        status: 400,
        body: { error: 'content, title are missing, at least one parameter must be provided' },
      });
    }
    // A title without a directory keeps the page in its directory.
    const renamed = await call('PUT', `${base}/wikis/dir%2FOne`, 'dev-token', { title: 'Uno' });
    expect(renamed).toMatchObject({ status: 200, body: { slug: 'dir/Uno', title: 'Uno', content: 'one' } });
    expect((await call('GET', `${base}/wikis/dir%2FOne`, 'dev-token')).status).toBe(404);
    const formatted = await call('PUT', `${base}/wikis/dir%2FUno`, 'dev-token', { content: 'one', format: 'asciidoc' });
    expect(formatted).toMatchObject({ status: 200, body: { slug: 'dir/Uno', format: 'asciidoc', content: 'one' } });
    expect(await call('PUT', `${base}/wikis/Two`, 'dev-token', { title: '/dir/uno' })).toMatchObject({
      status: 400,
      body: { message: 'There is already a page with the same title in that path.' },
    });
    expect(await call('PUT', `${base}/wikis/Three`, 'dev-token', { content: 'x' })).toMatchObject({ status: 404, body: { message: '404 Wiki Page Not Found' } });
    const list = await call('GET', `${base}/wikis`, 'dev-token');
    expect(list.body.map((p: { slug: string }) => p.slug)).toEqual(['Two', 'dir/Uno']);
  });

  it('renders HTML into `content` with render_html, as Banzai does: source positions and dir="auto"', async () => {
    await create(base, { title: 'Plain', content: 'Content for wiki page' });
    const plain = await call('GET', `${base}/wikis/Plain?render_html=true`, 'guest-token');
    expect(plain.body.content).toBe('<p data-sourcepos="1:1-1:21" dir="auto">Content for wiki page</p>');
    await create(base, { title: 'Doc', content: 'Content for **wiki** page' });
    const res = await call('GET', `${base}/wikis/Doc?render_html=true`, 'guest-token');
    expect(res.body.content).toBe('<p data-sourcepos="1:1-1:25" dir="auto">Content for <strong data-sourcepos="1:13-1:20">wiki</strong> page</p>');
    expect((await call('GET', `${base}/wikis/Doc?render_html=false`, 'guest-token')).body.content).toBe('Content for **wiki** page');
  });

  it('renders headings with their anchor, nested blocks with positions and only top-level blocks with dir="auto"', async () => {
    let n = 0;
    const html = async (content: string) => {
      const made = await create(base, { title: `Page ${++n}`, content });
      return (await call('GET', `${base}/wikis/${made.body.slug}?render_html=1`, 'guest-token')).body.content as string;
    };
    expect(await html('# Finding')).toBe('<h1 data-sourcepos="1:1-1:9" dir="auto">&#x000A;<a href="#finding" aria-hidden="true" class="anchor" id="user-content-finding"></a>Finding</h1>');
    expect(await html('## Set up!\n\n## Set up')).toBe(
      [
        '<h2 data-sourcepos="1:1-1:10" dir="auto">&#x000A;<a href="#set-up" aria-hidden="true" class="anchor" id="user-content-set-up"></a>Set up!</h2>',
        '<h2 data-sourcepos="3:1-3:9" dir="auto">&#x000A;<a href="#set-up-1" aria-hidden="true" class="anchor" id="user-content-set-up-1"></a>Set up</h2>',
      ].join('\n'),
    );
    expect(await html('- one *a*\n- two `b`\n\n> quoted\n> text\n\n1. first\n2. second')).toBe(
      [
        '<ul data-sourcepos="1:1-2:9" dir="auto">',
        '<li data-sourcepos="1:1-1:9">one <em data-sourcepos="1:7-1:9">a</em></li>',
        '<li data-sourcepos="2:1-2:9">two <code data-sourcepos="2:7-2:9">b</code></li>',
        '</ul>',
        '<blockquote data-sourcepos="4:1-5:6" dir="auto">',
        '<p data-sourcepos="4:3-5:6">quoted\ntext</p>',
        '</blockquote>',
        '<ol data-sourcepos="7:1-8:9" dir="auto">',
        '<li data-sourcepos="7:1-7:8">first</li>',
        '<li data-sourcepos="8:1-8:9">second</li>',
        '</ol>',
      ].join('\n'),
    );
    expect(await html('> - a\n> - b')).toBe(
      ['<blockquote data-sourcepos="1:1-2:5" dir="auto">', '<ul data-sourcepos="1:3-2:5">', '<li data-sourcepos="1:3-1:5">a</li>', '<li data-sourcepos="2:3-2:5">b</li>', '</ul>', '</blockquote>'].join('\n'),
    );
    expect(await html('```ruby\nputs 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |')).toBe(
      [
        '<pre data-sourcepos="1:1-3:3"><code class="language-ruby">puts 1',
        '</code></pre>',
        '<table data-sourcepos="5:1-7:9" dir="auto">',
        '<thead>',
        '<tr data-sourcepos="5:1-5:9">',
        '<th>a</th>',
        '<th>b</th>',
        '</tr>',
        '</thead>',
        '<tbody>',
        '<tr data-sourcepos="7:1-7:9">',
        '<td>1</td>',
        '<td>2</td>',
        '</tr>',
        '</tbody>',
        '</table>',
      ].join('\n'),
    );
    // Columns count bytes; external links open elsewhere.
    expect(await html('é **ü** [x](https://example.com)')).toBe(
      '<p data-sourcepos="1:1-1:34" dir="auto">é <strong data-sourcepos="1:4-1:9">ü</strong> <a data-sourcepos="1:11-1:34" href="https://example.com" rel="nofollow noreferrer noopener" target="_blank">x</a></p>',
    );
  });

  it('splits YAML front matter off the content', async () => {
    const made = await create(base, { title: 'Front', content: '---\ntitle: Real title\n---\nBody' });
    expect(made.body).toMatchObject({ content: 'Body', front_matter: { title: 'Real title' } });
  });

  it('writes `front_matter[title]` as a YAML block before the content (WikiPage#update_front_matter)', async () => {
    const made = await create(base, { title: 'Front', content: 'Body', front_matter: { title: 'Real title' } });
    expect(made).toMatchObject({ status: 201, body: { slug: 'Front', title: 'Front', content: 'Body', front_matter: { title: 'Real title' } } });
    expect(await wikiFile(kind, fullPath, 'Front.md')).toBe('---\ntitle: Real title\n---\nBody');
    expect((await call('GET', `${base}/wikis/Front`, 'guest-token')).body).toMatchObject({ content: 'Body', front_matter: { title: 'Real title' } });
    // A form body names it `front_matter[title]`.
    const form = new URLSearchParams({ title: 'Formed', content: 'Text', 'front_matter[title]': 'From a form' });
    const res = await apiCall(world(), `${base}/wikis`, { method: 'POST', token: 'dev-token', body: form });
    expect(await res.json()).toMatchObject({ content: 'Text', front_matter: { title: 'From a form' } });
    expect(await create(base, { title: 'Bad', content: 'x', front_matter: 'title' })).toMatchObject({ status: 400, body: { error: 'front_matter is invalid' } });
  });

  it('replaces the front matter on PUT, keeping the content unless new content is given', async () => {
    await create(base, { title: 'Front', content: '---\ntitle: Old\n---\nBody' });
    const retitled = await call('PUT', `${base}/wikis/Front`, 'dev-token', { title: 'Front', front_matter: { title: 'New' } });
    expect(retitled).toMatchObject({ status: 200, body: { content: 'Body', front_matter: { title: 'New' } } });
    expect(await wikiFile(kind, fullPath, 'Front.md')).toBe('---\ntitle: New\n---\nBody');
    const both = await call('PUT', `${base}/wikis/Front`, 'dev-token', { content: 'Other body', front_matter: { title: 'Newer' } });
    expect(both).toMatchObject({ status: 200, body: { content: 'Other body', front_matter: { title: 'Newer' } } });
    expect(await wikiFile(kind, fullPath, 'Front.md')).toBe('---\ntitle: Newer\n---\nOther body');
    // Content alone replaces the whole file, front matter included.
    expect((await call('PUT', `${base}/wikis/Front`, 'dev-token', { content: 'Plain' })).body).toMatchObject({ content: 'Plain', front_matter: {} });
  });

  it('quotes front matter titles as YAML.dump does, and reads them back', async () => {
    const cases: [string, string][] = [
      ['true', "title: 'true'"],
      ['42', "title: '42'"],
      ['a: b', "title: 'a: b'"],
      ["it's fine", "title: it's fine"],
      ["it's #1", "title: 'it''s #1'"],
      ['# hash', 'title: "# hash"'],
      ['/path', 'title: "/path"'],
      ['"quoted"', `title: '"quoted"'`],
      ['', "title: ''"],
      ['two\nlines', 'title: |-\n  two\n  lines'],
      ['Ünïcode', 'title: Ünïcode'],
    ];
    let n = 0;
    for (const [title, yaml] of cases) {
      const made = await create(base, { title: `Quoted ${++n}`, content: 'x', front_matter: { title } });
      expect(made.body.front_matter).toEqual({ title });
      expect(await wikiFile(kind, fullPath, `Quoted-${n}.md`)).toBe(`---\n${yaml}\n---\nx`);
    }
  });

  it('deletes for maintainers (204); developers and below get 403', async () => {
    await create(base, { title: 'Gone', content: 'x' });
    for (const token of ['dev-token', 'reporter-token', 'guest-token']) {
      expect(await call('DELETE', `${base}/wikis/Gone`, token)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    }
    const res = await call('DELETE', `${base}/wikis/Gone`, 'maintainer-token');
    expect(res.status).toBe(204);
    expect(await res.res.text()).toBe('');
    expect((await wikiHeadCommit(world(), kind, fullPath))!.message).toBe('mai deleted page: Gone');
    expect((await call('GET', `${base}/wikis`, 'guest-token')).body).toEqual([]);
    expect((await call('DELETE', `${base}/wikis/Gone`, 'maintainer-token')).status).toBe(404);
  });

  it('lets developers write; reporters and guests get 403, anonymous callers 401', async () => {
    for (const token of ['reporter-token', 'guest-token']) {
      expect(await create(base, { title: 'x', content: 'x' }, token)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    }
    expect((await apiCall(world(), `${base}/wikis`, { method: 'POST', json: { title: 'x', content: 'x' } })).status).toBe(401);
  });

  it('stores attachments under uploads/<hex>/ in the wiki repository', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])]), 'dk.png');
    const res = await apiCall(world(), `${base}/wikis/attachments`, { method: 'POST', token: 'dev-token', body: form });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { file_path: string };
    expect(Object.keys(body)).toEqual(['file_name', 'file_path', 'branch', 'link']);
    expect(body.file_path).toMatch(/^uploads\/[0-9a-f]{32}\/dk\.png$/);
    expect(body).toEqual({ file_name: 'dk.png', file_path: body.file_path, branch: 'main', link: { url: body.file_path, markdown: `![dk](${body.file_path})` } });
    expect((await wikiHeadCommit(world(), kind, fullPath))!.message).toBe('Upload attachment dk.png');
    const text = new FormData();
    text.append('file', new Blob(['hello']), 'notes.txt');
    const second = (await (await apiCall(world(), `${base}/wikis/attachments`, { method: 'POST', token: 'dev-token', body: text })).json()) as { link: { markdown: string }; file_path: string };
    expect(second.link.markdown).toBe(`[notes.txt](${second.file_path})`);
    expect(second.file_path).not.toBe(body.file_path);
    const missing = await apiCall(world(), `${base}/wikis/attachments`, { method: 'POST', token: 'dev-token', body: new FormData() });
    expect(missing.status).toBe(400);
    const other = new FormData();
    other.append('file', new Blob(['x']), 'x.txt');
    other.append('branch', 'elsewhere');
    const refused = await apiCall(world(), `${base}/wikis/attachments`, { method: 'POST', token: 'dev-token', body: other });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: 'You can only create or edit files when you are on a branch' });
  });

  it('accepts names such as __proto__ and constructor as titles', async () => {
    for (const title of ['__proto__', 'constructor']) expect((await create(base, { title, content: title })).status).toBe(201);
    expect((await call('GET', `${base}/wikis/__proto__`, 'guest-token')).body.content).toBe('__proto__');
    expect((await call('GET', `${base}/wikis/hasOwnProperty`, 'guest-token')).status).toBe(404);
  });
});

describe('wiki access', () => {
  it('hides a private project and group (404) and refuses a disabled wiki (403)', async () => {
    expect((await call('GET', `${APP}/wikis`, 'outsider-token')).status).toBe(404);
    expect((await call('GET', '/groups/hidden/wikis', 'outsider-token')).status).toBe(404);
    expect((await call('GET', '/projects/acme%2Fnowiki/wikis', 'outsider-token')).status).toBe(200);
    expect((await call('PUT', '/projects/acme%2Fnowiki', 'root-token', { wiki_access_level: 'disabled' })).status).toBe(200);
    expect(await call('GET', '/projects/acme%2Fnowiki/wikis', 'outsider-token')).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });

  it('serves group wikis at the higher tier only; project wikis at every tier', async () => {
    world().configure({ tier: 'free' });
    expect((await call('GET', '/groups/acme/wikis', 'root-token')).status).toBe(404);
    expect((await call('GET', `${APP}/wikis`, 'root-token')).status).toBe(200);
  });

  it('refuses wiki writes while a storage move makes the repository read-only', async () => {
    const READ_ONLY = { message: 'The repository is temporarily read-only. Please try again later.' };
    await create(APP, { title: 'Kept', content: 'x' });
    const move = await call('POST', `${APP}/repository_storage_moves`, 'root-token', { destination_storage_name: 'storage2' });
    expect(move.status).toBe(201);
    expect(await create(APP, { title: 'New', content: 'x' })).toMatchObject({ status: 400, body: READ_ONLY });
    expect(await call('PUT', `${APP}/wikis/Kept`, 'dev-token', { content: 'y' })).toMatchObject({ status: 400, body: READ_ONLY });
    expect(await call('DELETE', `${APP}/wikis/Kept`, 'maintainer-token')).toMatchObject({ status: 400, body: READ_ONLY });
    expect((await call('GET', `${APP}/wikis/Kept`, 'guest-token')).body.content).toBe('x');
    await create('/groups/acme', { title: 'Group page', content: 'x' });
    expect((await call('POST', '/groups/acme/repository_storage_moves', 'root-token', { destination_storage_name: 'storage2' })).status).toBe(201);
    expect(await create('/groups/acme', { title: 'Other', content: 'x' })).toMatchObject({ status: 400, body: READ_ONLY });
    // Once the moves finish, the wikis moved with their containers: their pages are there, and writable.
    world().runUntilIdle();
    expect((await call('GET', `${APP}/wikis/Kept`, 'guest-token')).body.content).toBe('x');
    expect((await create(APP, { title: 'New', content: 'x' })).status).toBe(201);
    expect((await create('/groups/acme', { title: 'Other', content: 'x' })).status).toBe(201);
    expect((await call('GET', '/projects/acme%2Fapp', 'root-token')).body.repository_storage).toBe('storage2');
  });

  it('refuses writes to the wiki of an archived project (403); reads keep working', async () => {
    await create(APP, { title: 'Kept', content: 'x' });
    updateProject(world(), 'acme/app', (p) => void (p.archived = true));
    expect(await create(APP, { title: 'New', content: 'x' })).toMatchObject({ status: 403 });
    expect((await call('DELETE', `${APP}/wikis/Kept`, 'maintainer-token')).status).toBe(403);
    expect((await call('GET', `${APP}/wikis/Kept`, 'guest-token')).status).toBe(200);
  });

  it('refuses content above the byte limit with its sizes', async () => {
    const big = 'a'.repeat(52428801);
    expect(await create(APP, { title: 'Big', content: big })).toMatchObject({ status: 400, body: { message: { content: ['is too long (50 MB). The maximum size is 50 MB.'] } } });
  });
});

describe('the fixture’s wiki part', () => {
  it('commits seeded pages by their authors, for groups and projects, beside a seeded repository', async () => {
    const { createEmulator } = await import('../src/index.js');
    const e = await createEmulator({
      fixture: {
        instance: { tier: 'premium' },
        users: TEAM,
        groups: [{ ...ACME, wiki: [{ title: 'Team Home', content: 'Welcome' }] }],
        projects: [
          teamProject({
            repository: { files: { 'README.md': '# App\n' } },
            wiki: [{ title: 'Home', content: 'v1' }, { title: 'docs/Setup Guide', content: '= Setup', format: 'asciidoc', author: 'dev' }],
          }),
        ],
      },
      clock: { now: '2024-03-01T10:00:00Z', frozen: true },
    });
    const get = async (path: string) => (await apiCall(e, path, { token: 'guest-token' })).json() as Promise<any>;
    expect((await get(`${APP}/wikis`)).map((p: { slug: string }) => p.slug)).toEqual(['Home', 'docs/Setup-Guide']);
    expect(await get(`${APP}/wikis/docs%2Fsetup-guide`)).toMatchObject({ format: 'asciidoc', content: '= Setup', title: 'Setup Guide' });
    expect(await wikiHeadCommit(e, 'project', 'acme/app')).toMatchObject({ message: 'dev created page: docs/Setup Guide', author: { name: 'Dee Veloper' } });
    expect((await get('/groups/acme/wikis/Team-Home')).content).toBe('Welcome');
    expect(await wikiHeadCommit(e, 'group', 'acme')).toMatchObject({ message: 'root created page: Team Home', author: { name: 'Administrator' } });
    // The project's repository is untouched, and the API keeps writing to the seeded wiki.
    expect((await apiCall(e, `${APP}/repository/files/README.md/raw?ref=main`, { token: 'dev-token' })).status).toBe(200);
    expect((await apiCall(e, `${APP}/wikis/Home`, { method: 'PUT', token: 'dev-token', json: { content: 'v2' } })).status).toBe(200);
    expect((await get(`${APP}/wikis/Home`)).content).toBe('v2');
  });

  it('refuses an invalid seeded page, naming it', async () => {
    const { createEmulator } = await import('../src/index.js');
    await expect(
      createEmulator({ fixture: { users: TEAM, groups: [ACME], projects: [teamProject({ wiki: [{ title: 'A', content: '' }, { title: 'a', content: '' }] })] } }),
    ).rejects.toThrow("project 'acme/app': wiki page 'a' is invalid: base Duplicate page: A page with that title already exists");
  });
});
