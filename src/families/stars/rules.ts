// UsersStarProject: who starred a project, and when; a project's `star_count` follows
// (Project#star_count, kept on the project record as GitLab keeps its counter column).
import type { Project, User } from '../../store/state.js';
import { pdel, pget, plist, pset, tdel, tget } from '../../store/table.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';

export interface Star {
  userId: number;
  projectId: number;
  createdAt: number;
}

export const starOf = (state: State, project: Project, user: User): Star | undefined => pget(state.stars, project.id, user.id);
export const starsOf = (state: State, project: Project): Star[] => plist(state.stars, project.id);

/** User#toggle_star, one way: false when it was already so (GitLab's 304). */
export function star(project: Project, user: User, now: number): Change<boolean> {
  return (draft) => {
    const s = draft as State;
    if (pget(s.stars, project.id, user.id)) return false;
    pset(s.stars, project.id, user.id, { userId: user.id, projectId: project.id, createdAt: now });
    tget(s.projects, project.id)!.starCount += 1;
    return true;
  };
}

export function unstar(project: Project, user: User): Change<boolean> {
  return (draft) => {
    const s = draft as State;
    if (!pdel(s.stars, project.id, user.id)) return false;
    const p = tget(s.projects, project.id)!;
    p.starCount = Math.max(0, p.starCount - 1);
    return true;
  };
}

export const forgetProject = (draft: State, id: number): void => void tdel(draft.stars, id);
