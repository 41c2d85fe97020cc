// The tags of a project's repository as a push meets them (git-receive-pack, applied by the
// repositories family): Gitlab::Checks::TagCheck against the repository before the push, with
// its messages, and how an accepted command moves a tag (a deleted tag's release goes with it).
import { movement, ZERO } from '../../git/transfer.js';
import { hasProjectRole } from '../../policy/access.js';
import { ACCESS } from '../../store/state.js';
import type { RefRule } from '../define.js';
import { defaultBranchName, draftRefs, findTag, isValidBranchName, recordPush, refsOf, setTagRef } from '../repositories/index.js';
import { canAdminTags, canCreateTag, deleteTag, isProtectedTag } from './rules.js';

// Gitlab::Checks::TagCheck messages.
export const TAG_PUSH_MESSAGES = {
  changeExistingTags: 'You are not allowed to change existing tags on this project.',
  updateProtectedTag: 'Protected tags cannot be updated.',
  deleteProtectedTag: 'You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.',
  deleteProtectedTagNonWeb: 'You can only delete protected tags using the web interface.',
  createProtectedTag: 'You are not allowed to create this tag as it is protected.',
  defaultBranchCollision: 'You cannot use default branch name to create a tag',
  prohibitedTagName: 'You cannot create a tag with a prohibited pattern.',
  shaTagName: 'You cannot create a tag with a SHA-1 or SHA-256 tag name.',
} as const;

export const TAG_PUSH_RULE: RefRule = {
  prefix: 'refs/tags/',
  check(c, cmd) {
    const { state, project, user, now } = c;
    const refs = refsOf(state, project.id);
    const { creation, deletion } = movement(cmd);
    const tag = cmd.ref.slice(10);
    if (findTag(refs, tag) && !canAdminTags(state, user, project, now)) return TAG_PUSH_MESSAGES.changeExistingTags;
    if (creation && tag === defaultBranchName(project)) return TAG_PUSH_MESSAGES.defaultBranchCollision;
    if (!deletion) {
      if (!isValidBranchName(tag) || tag.startsWith('refs/tags/')) return TAG_PUSH_MESSAGES.prohibitedTagName;
      if (/^[0-9a-f]{40}/.test(tag)) return TAG_PUSH_MESSAGES.shaTagName;
    }
    if (!isProtectedTag(refs, tag)) return null;
    if (!creation && !deletion) return TAG_PUSH_MESSAGES.updateProtectedTag;
    if (deletion) return hasProjectRole(state, user, project, ACCESS.maintainer, now) ? TAG_PUSH_MESSAGES.deleteProtectedTagNonWeb : TAG_PUSH_MESSAGES.deleteProtectedTag;
    return canCreateTag(state, user, project, tag, now) ? null : TAG_PUSH_MESSAGES.createProtectedTag;
  },
  async update(c, cmd, objects) {
    const name = cmd.ref.slice(10);
    if (cmd.new === ZERO) {
      return (draft) => {
        if (findTag(draftRefs(draft, c.project.id), name)) deleteTag(c.state, c.project, name, c.now)(draft);
      };
    }
    const { commit, message } = await objects.peel(cmd.new);
    const tag = { target: cmd.new, commit: commit ?? cmd.new, message: commit && cmd.new !== commit ? message : null };
    return (draft) => {
      setTagRef(draftRefs(draft, c.project.id), name, tag);
      recordPush(draft, { projectId: c.project.id, refType: 'tag', ref: name, before: cmd.old === ZERO ? null : cmd.old, after: cmd.new });
    };
  },
};
