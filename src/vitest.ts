// `gitlab-emulator/vitest`: `useGitlabEmulator({ fixture })` and the fixture builders.
export { useGitlabEmulator, gitlabEmulatorGlobalSetup, SHARED_SERVER_KEY, type GitlabEmulatorSetup, type GitlabEmulatorHandle } from './transports/vitest.js';
export { fixture, FixtureBuilder, type UserSpec, type GroupSpec, type ProjectSpec } from './index.js';
