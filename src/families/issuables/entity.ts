// The fields issues and merge requests render alike (lib/api/entities/issuable_entity.rb,
// issuable_time_stats.rb): task completion and time stats.
import { formatDuration } from './duration.js';

/** TaskList items of a description: `- [ ]`, `* [x]`, `1. [X]` at the start of a line. */
export function taskCounts(description: string): { count: number; completed_count: number } {
  let count = 0;
  let done = 0;
  for (const m of description.matchAll(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[([ xX~])\](?=\s)/gm)) {
    if (m[1] === '~') continue;
    count++;
    if (m[1] !== ' ') done++;
  }
  return { count, completed_count: done };
}

export function timeStats(i: { timeEstimate: number; totalTimeSpent: number }) {
  return {
    time_estimate: i.timeEstimate,
    total_time_spent: i.totalTimeSpent,
    human_time_estimate: formatDuration(i.timeEstimate),
    human_total_time_spent: formatDuration(i.totalTimeSpent),
  };
}
