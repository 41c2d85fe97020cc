// Gitlab::Gfm::ReferenceRewriter, as Issues::MoveService and Notes::CopyService apply it to a
// moved issue's description and notes: each issue (`#n`) and merge request (`!n`) reference the
// mover may read is written as seen from the new project (Issue#to_reference(target_project)),
// so it still points where it pointed. Code is left alone, and so is what names nothing.
import { projectByIdOrPath } from '../../policy/paths.js';
import type { Project, User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { socialKind, splitCode } from '../issuables/index.js';
import type { State } from '../world.js';

// An optional project path (`app`, `group/app`), the sigil and the iid; never inside a word or a path.
const REFERENCE = /(?<![\w/.\-#!])((?:[\w.-]+\/)*[\w.-]+)?([#!])(\d+)(?!\w)/g;

function fullPath(state: State, p: Project): string {
  return `${tget(state.namespaces, p.namespaceId)!.fullPath}/${p.path}`;
}

/** Project#to_reference_base: nothing for the same project, the path within the namespace, else the full path. */
function referenceBase(state: State, of: Project, from: Project): string {
  if (of.id === from.id) return '';
  if (of.namespaceId === from.namespaceId) return of.path;
  return fullPath(state, of);
}

/** The project a reference's path names, seen from `from`: its own when none, one of its namespace for a bare path. */
function referencedProject(state: State, from: Project, path: string | undefined): Project | undefined {
  if (path === undefined) return from;
  return projectByIdOrPath(state, path.includes('/') ? path : `${tget(state.namespaces, from.namespaceId)!.fullPath}/${path}`);
}

export function rewriteReferences(state: State, text: string, from: Project, to: Project, user: User, now: number): string {
  if (!text.includes('#') && !text.includes('!')) return text;
  return splitCode(text)
    .map((piece) =>
      piece.code
        ? piece.text
        : piece.text.replace(REFERENCE, (whole, path: string | undefined, sigil: string, digits: string) => {
            const project = referencedProject(state, from, path);
            if (!project) return whole;
            const kind = socialKind(sigil === '#' ? 'Issue' : 'MergeRequest');
            if (!kind.readableByIid(state, user, project, Number(digits), now)) return whole;
            return `${referenceBase(state, project, to)}${sigil}${digits}`;
          }),
    )
    .join('');
}
