// The world's type and the fixture's type, made of open interfaces that each family extends from
// its own index.ts (declaration merging), so this file imports no family:
//
//   declare module '../world.js' {
//     interface Slices extends WikisSlice {}
//     interface FixtureProjectParts extends FixtureWikisPart {}
//   }
import type { Tier, Offering, Settings, CoreState } from '../store/state.js';
import type { StreamSlice } from './stream.js';
import type { WorldImage } from './image.js';

/** Every family's slice of the world: each family extends it with its own. */
export interface Slices {}
/** The fields each family adds to a fixture's top level, users, groups and projects. */
export interface FixtureTopParts {}
export interface FixtureUserParts {}
export interface FixtureGroupParts {}
export interface FixtureProjectParts {}
/** The kinds of record notes hang on, each a key added by the family that owns it (`Snippet: true`). */
export interface Noteables {}

/** An open interface as a plain object type (assignable to `Record<string, unknown>`, as data is); comments of its keys kept. */
type Plain<T> = { [K in keyof T]: T[K] };

/** The whole world: the shared records, the event stream and every family's slice. */
export type State = CoreState & StreamSlice & Slices;

/** The members every family's test handle adds to the emulator (`ci(project)`, `moves`...): each family extends it with its own. */
export interface FamilyHandles {}

/** What a note may hang on (a note's `noteableType`): the kinds the families own (`Issue`, `MergeRequest`, `Snippet`...). */
export type NoteableType = keyof Noteables;

export type FixtureUser = Plain<FixtureUserParts>;
export type FixtureGroup = Plain<FixtureGroupParts>;
export type FixtureProject = Plain<FixtureProjectParts>;

/** A world as data: what `emulator.seed` and the CLI's `--fixture` take. */
export type Fixture = {
  /** The JSON Schema editors check the file against. */
  $schema?: string;
  instance?: { tier?: Tier; offering?: Offering; settings?: Partial<Settings>; version?: string };
  users?: FixtureUser[];
  groups?: FixtureGroup[];
  projects?: FixtureProject[];
  /** A whole world as `emulator.exportFixture()` writes it: seeded as it was, before the other keys. */
  world?: WorldImage;
} & Plain<FixtureTopParts>;

/** What `seed` returns: the ids, tokens and job tokens it made, by username and full path. */
export interface SeedHandles {
  users: Record<string, { id: number; tokens: string[]; sessions: string[] }>;
  groups: Record<string, { id: number }>;
  projects: Record<string, { id: number; tokens: string[]; jobs: Record<string, { id: number; token: string }> }>;
}
