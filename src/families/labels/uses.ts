// What carries labels, as the families that own it register it: the label routes count it
// (`with_counts`) and take a deleted label off it without importing those families, which sit
// above this one.
import type { Draft } from 'immer';
import type { State } from '../world.js';
import type { Label } from './records.js';

export interface LabelCounts {
  open_issues_count: number;
  closed_issues_count: number;
  open_merge_requests_count: number;
}

export interface LabelUse {
  /** Its part of a label's counts. */
  counts?(state: State, label: Label): Partial<LabelCounts>;
  /** Takes a label that is being deleted off every record that carries it. */
  unlabel(draft: Draft<State>, label: Label): void;
  /** Puts `to` where `from` is, on every record that carries `from` (a promoted label's merge). */
  relabel?(draft: Draft<State>, from: Label, to: Label): void;
}

const USES: LabelUse[] = [];

/** Called once by a family whose records carry labels, when it loads. */
export function registerLabelUse(use: LabelUse): void {
  USES.push(use);
}

/** A label's counts: what each use counts, none where no use counts it. */
export function labelCounts(state: State, label: Label): LabelCounts {
  const out: LabelCounts = { open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 };
  for (const use of USES) Object.assign(out, use.counts?.(state, label));
  return out;
}

/** Takes a label off everything that carries it. */
export function unlabelAll(draft: Draft<State>, label: Label): void {
  for (const use of USES) use.unlabel(draft, label);
}

/** Moves everything that carries `from` to `to`. */
export function relabelAll(draft: Draft<State>, from: Label, to: Label): void {
  for (const use of USES) use.relabel?.(draft, from, to);
}
