// What carries milestones (issues, merge requests), as the families that own it register it: a
// promoted milestone's merge moves their records to the group milestone without this family
// importing them, as they sit above it.
import type { Draft } from 'immer';
import type { State } from '../world.js';

export interface MilestoneUse {
  /** Points the project's records that carry one of `from` at `to`. */
  move(draft: Draft<State>, projectId: number, from: ReadonlySet<number>, to: number): void;
}

const USES: MilestoneUse[] = [];

/** Called once by a family whose records carry milestones, when it loads. */
export function registerMilestoneUse(use: MilestoneUse): void {
  USES.push(use);
}

export function moveMilestoneUses(draft: Draft<State>, projectId: number, from: ReadonlySet<number>, to: number): void {
  for (const use of USES) use.move(draft, projectId, from, to);
}
