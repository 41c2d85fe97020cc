// Projects::Topic: the topics projects are tagged with. A topic a project is given is made at
// once (title = name), as Projects::UpdateService's topic assignment does; administrators
// create, change, merge (Topics::MergeService) and delete them, and a deleted or merged topic
// leaves the projects that had it.
import { validationFailed, messageError } from '../../core/errors.js';
import { sequences } from '../../store/state.js';
import { derived, tchanges, tdel, tget, tset, tvalues, type Table } from '../../store/table.js';
import { forgetAvatar } from '../avatars/index.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';

export interface Topic {
  id: number;
  name: string;
  title: string;
  description: string | null;
  createdAt: number;
}

const ids = sequences(['topic']);

const lower = (s: string) => s.toLowerCase();

/** Lower-cased topic name -> the projects (not being deleted) that have it, and how many of them are not private. */
function projectCounts(projects: State['projects']): Map<string, { total: number; nonPrivate: number; name: string }> {
  const out = new Map<string, { total: number; nonPrivate: number; name: string }>();
  for (const p of tvalues(projects)) {
    if (p.pendingDelete) continue;
    for (const t of new Set(p.topics.map(lower))) {
      const c = out.get(t) ?? { total: 0, nonPrivate: 0, name: p.topics.find((x) => lower(x) === t)! };
      c.total += 1;
      if (p.visibility !== 'private') c.nonPrivate += 1;
      out.set(t, c);
    }
  }
  return out;
}

function byName(topics: Table<Topic>): Map<string, Topic> {
  const out = new Map<string, Topic>();
  for (const t of tvalues(topics)) out.set(lower(t.name), t);
  return out;
}

export const countsOf = (state: State) => derived(state.projects, projectCounts);
export const topicByName = (state: State, name: string) => derived(state.topics, byName).get(lower(name));
export const findTopic = (state: State, id: number) => tget(state.topics, id);
export const totalProjects = (state: State, t: Topic) => countsOf(state).get(lower(t.name))?.total ?? 0;

/** Projects::TopicsFinder: by name or title, `without_projects`, most used (by non-private projects) first. */
export function listTopics(state: State, search: string | undefined, withoutProjects: boolean): Topic[] {
  const counts = countsOf(state);
  const q = search?.toLowerCase();
  return [...tvalues(state.topics)]
    .filter((t) => !q || lower(t.name).includes(q) || lower(t.title).includes(q))
    .filter((t) => !withoutProjects || !counts.get(lower(t.name)))
    .sort((a, b) => (counts.get(lower(b.name))?.nonPrivate ?? 0) - (counts.get(lower(a.name))?.nonPrivate ?? 0) || a.id - b.id);
}

/** The names projects use that are no topic yet. */
export function missingTopics(state: State): string[] {
  const known = derived(state.topics, byName);
  return [...countsOf(state).entries()].filter(([key]) => !known.has(key)).map(([, c]) => c.name);
}

/** The topics projects changed since `before` carry that are not topics yet (reading only the changed projects). */
export function missingTopicsSince(before: State['projects'], state: State): string[] {
  const known = derived(state.topics, byName);
  const out = new Map<string, string>();
  for (const [, , p] of tchanges(before, state.projects)) {
    if (!p || p.pendingDelete) continue;
    for (const name of p.topics) if (!known.has(lower(name)) && !out.has(lower(name))) out.set(lower(name), name);
  }
  return [...out.values()];
}

export function makeMissing(names: string[], now: number): Change {
  return (draft) => {
    for (const name of names) {
      const t: Topic = { id: ids.next(draft, 'topic'), name, title: name, description: null, createdAt: now };
      tset((draft as State).topics, t.id, t);
    }
  };
}

export interface TopicInput {
  name?: string;
  title?: string;
  description?: string;
}

/** Projects::Topic's validations. */
function validate(state: State, t: Topic): void {
  const errors: Record<string, string[]> = {};
  if (t.name.trim() === '') errors.name = ["can't be blank"];
  else if (t.name.length > 255) errors.name = ['is too long (maximum is 255 characters)'];
  else {
    const other = topicByName(state, t.name);
    if (other && other.id !== t.id) errors.name = ['has already been taken'];
  }
  if (t.title.trim() === '') errors.title = ["can't be blank"];
  else if (t.title.length > 255) errors.title = ['is too long (maximum is 255 characters)'];
  if (t.description !== null && t.description.length > 1024) errors.description = ['is too long (maximum is 1024 characters)'];
  if (Object.keys(errors).length) throw validationFailed(errors);
}

export function createTopic(state: State, input: { name: string; title: string; description?: string }, now: number): Change<Topic> {
  const t: Topic = { id: 0, name: input.name, title: input.title, description: input.description ?? null, createdAt: now };
  validate(state, t);
  return (draft) => {
    const made = { ...t, id: ids.next(draft, 'topic') };
    tset((draft as State).topics, made.id, made);
    return made;
  };
}

/** A renamed topic is renamed in its projects too (they refer to it). */
export function updateTopic(state: State, topic: Topic, input: TopicInput): Change<Topic> {
  const next: Topic = { ...topic, name: input.name ?? topic.name, title: input.title ?? topic.title, description: input.description ?? topic.description };
  validate(state, next);
  return (draft) => {
    const s = draft as State;
    if (next.name !== topic.name) retag(s, topic.name, next.name);
    tset(s.topics, topic.id, next);
    return next;
  };
}

/** Every project tagged `from` is tagged `to` instead (or loses it, for null). */
function retag(draft: State, from: string, to: string | null): void {
  for (const p of tvalues(draft.projects)) {
    if (!p.topics.some((x) => lower(x) === lower(from))) continue;
    const kept = p.topics.filter((x) => lower(x) !== lower(from));
    p.topics = to === null || kept.some((x) => lower(x) === lower(to)) ? kept : [...kept, to];
  }
}

export function deleteTopic(topic: Topic): Change {
  return (draft) => {
    retag(draft as State, topic.name, null);
    tdel((draft as State).topics, topic.id);
    forgetAvatar(draft as State, 'topic', topic.id);
  };
}

/** Topics::MergeService. */
export function mergeTopics(source: Topic, target: Topic): Change<Topic> {
  if (source.id === target.id) throw messageError(400, 'The source topic and the target topic are identical.');
  return (draft) => {
    retag(draft as State, source.name, target.name);
    tdel((draft as State).topics, source.id);
    forgetAvatar(draft as State, 'topic', source.id);
    return target;
  };
}
