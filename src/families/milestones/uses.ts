// What carries milestones (issues, merge requests), as the families that own it register it: a
// promoted milestone's merge moves their records to the group milestone without this family
// importing them, as they sit above it.
import type { Draft } from 'immer';
import type { State } from '../world.js';

export interface MilestoneUse {
  /** Points the project's records that carry one of `from` at `to`. */
  move(draft: Draft<State>, projectId: number, from: ReadonlySet<number>, to: number): void;
}

/**
 * The registered uses, kept by a function (hoisted, so callable before this module's body has
 * run): a family that imports this one inside an import cycle may register first.
 */
function uses(): MilestoneUse[] {
  const holder = uses as { list?: MilestoneUse[] };
  return (holder.list ??= []);
}

/** Called once by a family whose records carry milestones, when it loads. */
export function registerMilestoneUse(use: MilestoneUse): void {
  uses().push(use);
}

export function moveMilestoneUses(draft: Draft<State>, projectId: number, from: ReadonlySet<number>, to: number): void {
  for (const use of uses()) use.move(draft, projectId, from, to);
}
