// The world's type and the fixture's type, derived from the list of families: a family adds
// its slice and its fixture parts by being listed, never by editing this file.
import type { Tier, Offering, Settings, CoreState } from '../store/state.js';
import type { FAMILIES } from './index.js';
import type { StreamSlice } from './stream.js';

type Families = typeof FAMILIES;

type Types<H> = NonNullable<H extends { types?: unknown } ? H['types'] : never>;
type SliceOf<H> = Types<H> extends { slice: infer S } ? S : unknown;
type PartOf<H, K extends string> = Types<H> extends { fixture: infer F } ? (K extends keyof F ? NonNullable<F[K]> : unknown) : unknown;

type HandleOf<H> = Types<H> extends { more: { handle: infer M } } ? M : unknown;
type NoteableOf<H> = Types<H> extends { more: { noteable: infer N } } ? N : never;

type Slices<T> = T extends readonly [infer H, ...infer R] ? SliceOf<H> & Slices<R> : unknown;
type Handles<T> = T extends readonly [infer H, ...infer R] ? HandleOf<H> & Handles<R> : unknown;
type Noteables<T> = T extends readonly [infer H, ...infer R] ? NoteableOf<H> | Noteables<R> : never;
type Parts<T, K extends string> = T extends readonly [infer H, ...infer R] ? PartOf<H, K> & Parts<R, K> : unknown;

/** The whole world: the shared records, the event stream and every family's slice. */
export type State = CoreState & StreamSlice & Slices<Families>;

/** The members every family's test handle adds to the emulator (`ci(project)`, `moves`...). */
export type FamilyHandles = Handles<Families>;

/** What a note may hang on (a note's `noteableType`): the kinds the families own (`Issue`, `MergeRequest`, `Snippet`...). */
export type NoteableType = Noteables<Families>;

export type FixtureUser = Parts<Families, 'user'>;
export type FixtureGroup = Parts<Families, 'group'>;
export type FixtureProject = Parts<Families, 'project'>;

/** A world as data: what `emulator.seed` and the CLI's `--fixture` take. */
export type Fixture = {
  instance?: { tier?: Tier; offering?: Offering; settings?: Partial<Settings> };
  users?: FixtureUser[];
  groups?: FixtureGroup[];
  projects?: FixtureProject[];
} & Parts<Families, 'top'>;

/** What `seed` returns: the ids, tokens and job tokens it made, by username and full path. */
export interface SeedHandles {
  users: Record<string, { id: number; tokens: string[]; sessions: string[] }>;
  groups: Record<string, { id: number }>;
  projects: Record<string, { id: number; tokens: string[]; jobs: Record<string, { id: number; token: string }> }>;
}
