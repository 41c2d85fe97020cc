// `gitlab-emulator`: loads neither msw nor node:http.
export { createEmulator, Emulator, DEFAULT_BASE_URL, DEFAULT_FIXTURE } from './emulator.js';
export type { EmulatorOptions, ListenOptions, Server, RequestEvent, UnknownRoutePolicy, EmulatedRoute } from './emulator.js';
export { Clock, parseDuration, type ClockOptions, type DurationInput } from './core/clock.js';
export type { Fixture, FixtureUser, FixtureGroup, FixtureProject, SeedHandles, State } from './families/world.js';
export type { FixtureToken, FixtureMember } from './families/users/index.js';
export type { FixtureJob } from './families/projects/index.js';
export type { RoleName } from './policy/access.js';
export type { FixtureRepository, FixtureCommit, FixtureTag, FixtureX509Signature, GitRepository, RepositoryHandle, RepositoryRefs, Repository, TagRef, ProtectedBranch } from './families/repositories/index.js';
export type { FixtureMilestone } from './families/milestones/index.js';
export type { FixtureRelease } from './families/releases/index.js';
export type {
  CiHandle, CiPipelineInput, CiJobInput, CiFinishInput, CiArtifactsInput, CiCleanupPlan, CiCdnConfig, CiLimits, CiVariable, Pipeline, JobArtifacts,
  FixtureVariable, FixturePipeline, FixturePipelineJob, Job, JobStatus,
} from './families/ci/index.js';
import type { JournalEntry as Entry } from './core/journal.js';
import type { Snapshot as WorldSnapshot } from './store/store.js';
/** One journaled request, with the world just before and after it. */
export type JournalEntry = Entry<WorldSnapshot>;
export type { FaultRule, Fault } from './core/faults.js';
export type { Snapshot } from './store/store.js';
export type { Settings, Instance, Tier, Offering, Visibility, User, Project, Namespace, Token } from './store/state.js';
export { ACCESS } from './store/state.js';
export { EmulatorError, FixtureError } from './core/errors.js';
export { fixture, FixtureBuilder, type UserSpec, type GroupSpec, type ProjectSpec } from './families/fixture-builder.js';
export type { DomainEvent, DomainEvents, EventKind, StoredEvent } from './families/stream.js';
