// `gitlab-emulator`: loads neither msw nor node:http.
export { createEmulator, Emulator, DEFAULT_BASE_URL, DEFAULT_FIXTURE } from './emulator.js';
export type { EmulatorOptions, ListenOptions, Server } from './emulator.js';
export { Clock, parseDuration, type ClockOptions, type DurationInput } from './core/clock.js';
export type { Fixture, FixtureUser, FixtureGroup, FixtureProject, FixtureToken, FixtureMember, FixtureJob, SeedHandles, RoleName } from './families/fixture.js';
export type { FixtureRepository, FixtureCommit, FixtureTag, FixtureX509Signature, FixtureMilestone, FixtureRelease } from './families/fixture.js';
export type { RepositoryHandle, RepositoryRefs } from './families/repositories/handle.js';
export type { Repository, TagRef, ProtectedBranch } from './store/state.js';
export type { JournalEntry } from './core/journal.js';
export type { FaultRule, Fault } from './core/faults.js';
export type { Snapshot } from './store/store.js';
export type { State, Settings, Instance, Tier, Offering, Visibility, User, Project, Namespace, Token } from './store/state.js';
export { ACCESS } from './store/state.js';
export { EmulatorError } from './core/errors.js';
