// Branches as GitLab renders them (lib/api/entities/branch.rb).
import { commitEntity, type CommitRef } from '../commits/index.js';
import { urlPath } from '../../render/url.js';

export interface BranchFacts {
  name: string;
  commit: CommitRef;
  /** Merged into the default branch (and not the same commit). */
  merged: boolean;
  protected: boolean;
  developersCanPush: boolean;
  developersCanMerge: boolean;
  canPush: boolean;
  default: boolean;
}


export function branchEntity(projectWebUrl: string, b: BranchFacts) {
  return {
    name: b.name,
    commit: commitEntity(projectWebUrl, b.commit),
    merged: b.merged,
    protected: b.protected,
    developers_can_push: b.developersCanPush,
    developers_can_merge: b.developersCanMerge,
    can_push: b.canPush,
    default: b.default,
    web_url: `${projectWebUrl}/-/tree/${urlPath(b.name)}`,
  };
}
