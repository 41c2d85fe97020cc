// The same, with the world built in code: `fixture()` is typed, makes the groups a path names,
// and gives a user a token in one word.
import { expect, it } from 'vitest';
import { fixture, useGitlabEmulator } from 'gitlab-emulator/vitest';

const gitlab = useGitlabEmulator({
  fixture: fixture()
    .user('dev', { token: 'dev-token' })
    .project('acme/tools/cli', { visibility: 'private', members: { dev: 'developer' }, files: { 'README.md': '# cli\n', 'bin/cli.js': 'console.log("hi")\n' } }),
});

it('reads a file of a private project as a member', async () => {
  const res = await fetch(`${gitlab.apiUrl}/projects/acme%2Ftools%2Fcli/repository/files/bin%2Fcli.js/raw?ref=main`, {
    headers: { 'PRIVATE-TOKEN': 'dev-token' },
  });
  expect(res.status).toBe(200);
  expect(await res.text()).toBe('console.log("hi")\n');
});

it('hides it from everyone else', async () => {
  const res = await fetch(`${gitlab.apiUrl}/projects/acme%2Ftools%2Fcli`);
  expect(res.status).toBe(404);
});
