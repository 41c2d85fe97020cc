// An integration test against the emulator's HTTP server, driven by a real client
// (@gitbeaker/rest). Any language's client can do the same against `server.url`.
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator } from 'gitlab-emulator';

const emulator = await createEmulator(); // the default world: root, alice, group acme
const server = await emulator.listen({ port: 0 });
const api = new Gitlab({ host: server.url, token: 'glpat-emulator-alice-token' });

afterAll(() => server.close());

describe('a client against the server', () => {
  it('creates a project in a group and lists it back', async () => {
    const group = await api.Groups.show('acme');
    const project = await api.Projects.create({ name: 'Integration', path: 'integration', namespaceId: group.id as number });
    expect(project.path_with_namespace).toBe('acme/integration');
    const listed = await api.Groups.allProjects('acme');
    expect(listed.map((p) => p.path)).toContain('integration');
  });

  it('sees who it is', async () => {
    expect((await api.Users.showCurrentUser()).username).toBe('alice');
  });
});
